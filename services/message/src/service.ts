import { messageRpc } from '@veil/contracts';
import { serveRpc, startProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { messageRpcHandlers } from './handlers/rpc.handlers.ts';
import { openMessageReadModels, timelineProjection } from './projections/timeline.projection.ts';

/** The message service: stores ciphertext only, refuses non-members, records read receipts. */
export const start: StartService = async ({ ports }) => {
  const log = ports.log.child({ service: 'message' });
  const models = await openMessageReadModels(ports.readStore);
  const projection = await startProjection({
    bus: ports.bus,
    readStore: ports.readStore,
    log,
    definition: timelineProjection(models),
  });
  await projection.catchUp();
  const rpc = await serveRpc(
    ports.rpc,
    messageRpc,
    messageRpcHandlers({ store: ports.bus, models, projection, clock: ports.clock, ids: ports.ids }),
  );
  return {
    async stop() {
      await rpc.stop();
      await projection.stop();
    },
  };
};
