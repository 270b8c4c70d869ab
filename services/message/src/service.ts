import { messageRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { ownWrites } from './handlers/own-writes.ts';
import { messageRpcHandlers } from './handlers/rpc.handlers.ts';
import { unreadHandlers } from './handlers/unread.handlers.ts';
import { openMessageReadModels, timelineProjection } from './projections/timeline.projection.ts';
import { openUnreadReadModels, unreadProjection } from './projections/unread.projection.ts';

/** The timeline's and the unread counts' projections, for tools that rebuild them. */
export const openProjection: OpenProjection = async (readStore, log) => [
  timelineProjection(await openMessageReadModels(readStore), log),
  unreadProjection(await openUnreadReadModels(readStore)),
];

/** The message service: stores ciphertext only, refuses non-members, records read receipts. */
export const start: StartService = async ({ ports }) => {
  const models = await openMessageReadModels(ports.readStore);
  const unreadModels = await openUnreadReadModels(ports.readStore);
  return startProjectedRpcService(ports, {
    contract: messageRpc,
    projection: timelineProjection(models, ports.bus),
    companions: [unreadProjection(unreadModels)],
    handlers: (projection, companions) => {
      const written = ownWrites([projection, ...companions], 'message');
      return {
        ...messageRpcHandlers({
          store: ports.bus,
          models,
          projection,
          written,
          clock: ports.clock,
          ids: ports.ids,
        }),
        ...unreadHandlers({ models: { ...models, ...unreadModels }, written }),
      };
    },
  });
};
