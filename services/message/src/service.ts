import { messageRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { messageRpcHandlers } from './handlers/rpc.handlers.ts';
import { openMessageReadModels, timelineProjection } from './projections/timeline.projection.ts';

/** The timeline's projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore, log) =>
  timelineProjection(await openMessageReadModels(readStore), log);

/** The message service: stores ciphertext only, refuses non-members, records read receipts. */
export const start: StartService = async ({ ports }) => {
  const models = await openMessageReadModels(ports.readStore);
  return startProjectedRpcService(ports, {
    contract: messageRpc,
    projection: timelineProjection(models, ports.bus),
    handlers: (projection) =>
      messageRpcHandlers({ store: ports.bus, models, projection, clock: ports.clock, ids: ports.ids }),
  });
};
