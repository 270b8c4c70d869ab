import { chatRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { chatRpcHandlers } from './handlers/rpc.handlers.ts';
import { chatListProjection, openChatReadModels } from './projections/chat-list.projection.ts';

/** The chat list's projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore) =>
  chatListProjection(await openChatReadModels(readStore));

/** The chat service: one-to-one and group chats and their membership. */
export const start: StartService = async ({ ports }) => {
  const models = await openChatReadModels(ports.readStore);
  return startProjectedRpcService(ports, {
    contract: chatRpc,
    projection: chatListProjection(models),
    handlers: (projection) =>
      chatRpcHandlers({ store: ports.bus, models, projection, clock: ports.clock, ids: ports.ids }),
  });
};
