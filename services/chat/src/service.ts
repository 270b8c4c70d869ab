import { chatRpc } from '@veil/contracts';
import { serveRpc, startProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { chatRpcHandlers } from './handlers/rpc.handlers.ts';
import { chatListProjection, openChatReadModels } from './projections/chat-list.projection.ts';

/** The chat service: one-to-one and group chats and their membership. */
export const start: StartService = async ({ ports }) => {
  const log = ports.log.child({ service: 'chat' });
  const models = await openChatReadModels(ports.readStore);
  const projection = await startProjection({
    bus: ports.bus,
    readStore: ports.readStore,
    log,
    definition: chatListProjection(models),
  });
  await projection.catchUp();
  const rpc = await serveRpc(
    ports.rpc,
    chatRpc,
    chatRpcHandlers({ store: ports.bus, models, projection, clock: ports.clock, ids: ports.ids }),
  );
  return {
    async stop() {
      await rpc.stop();
      await projection.stop();
    },
  };
};
