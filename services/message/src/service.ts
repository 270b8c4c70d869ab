import { messageRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { scheduleAttachmentSweep } from './handlers/attachment-sweep.ts';
import { scheduleMessageExpiry } from './handlers/message-expiry.ts';
import { ownWrites } from './handlers/own-writes.ts';
import { messageRpcHandlers } from './handlers/rpc.handlers.ts';
import { unreadHandlers } from './handlers/unread.handlers.ts';
import { openMessageReadModels, timelineProjection } from './projections/timeline.projection.ts';
import { openUnreadReadModels, unreadProjection } from './projections/unread.projection.ts';
import { defaultAttachmentSettings, defaultExpiryCheckSeconds, type MessageSettings } from './settings.ts';

export type { MessageSettings } from './settings.ts';

/** The timeline's and the unread counts' projections, for tools that rebuild them. */
export const openProjection: OpenProjection = async (readStore, log) => [
  timelineProjection(await openMessageReadModels(readStore), log),
  unreadProjection(await openUnreadReadModels(readStore)),
];

/**
 * The message service: stores ciphertext only, refuses non-members, records read receipts, keeps
 * unread counts, owns encrypted attachments (who may upload and read them; unsent uploads
 * are swept), and expires disappearing messages.
 */
export const start: StartService<Partial<MessageSettings>> = async ({ ports, settings }) => {
  const attachmentSettings = settings.attachments ?? defaultAttachmentSettings;
  const models = await openMessageReadModels(ports.readStore);
  const unreadModels = await openUnreadReadModels(ports.readStore);
  const stopSweep = scheduleAttachmentSweep({
    ...ports,
    store: ports.bus,
    models,
    settings: attachmentSettings,
    log: ports.log.child({ service: 'message' }),
  });
  const stopExpiry = scheduleMessageExpiry({
    ...ports,
    store: ports.bus,
    models,
    checkSeconds: settings.expiryCheckSeconds ?? defaultExpiryCheckSeconds,
    log: ports.log.child({ service: 'message' }),
  });
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
          blobs: ports.blobs,
          attachmentSettings,
        }),
        ...unreadHandlers({ models: { ...models, ...unreadModels }, written }),
      };
    },
    onStop: async () => {
      await Promise.all([stopSweep(), stopExpiry()]);
    },
  });
};
