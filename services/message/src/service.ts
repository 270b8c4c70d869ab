import { messageRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { messageRpcHandlers } from './handlers/rpc.handlers.ts';
import { openMessageReadModels, timelineProjection } from './projections/timeline.projection.ts';
import { scheduleAttachmentSweep } from './handlers/attachment-sweep.ts';
import { defaultAttachmentSettings, type MessageSettings } from './settings.ts';

export type { MessageSettings } from './settings.ts';

/** The timeline's projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore, log) =>
  timelineProjection(await openMessageReadModels(readStore), log);

/**
 * The message service: stores ciphertext only, refuses non-members, records read receipts, and
 * owns encrypted attachments (who may upload and read them; unsent uploads are swept).
 */
export const start: StartService<Partial<MessageSettings>> = async ({ ports, settings }) => {
  const attachmentSettings = settings.attachments ?? defaultAttachmentSettings;
  const models = await openMessageReadModels(ports.readStore);
  const stopSweep = scheduleAttachmentSweep({
    ...ports,
    store: ports.bus,
    models,
    settings: attachmentSettings,
    log: ports.log.child({ service: 'message' }),
  });
  return startProjectedRpcService(ports, {
    contract: messageRpc,
    projection: timelineProjection(models, ports.bus),
    handlers: (projection) =>
      messageRpcHandlers({
        store: ports.bus,
        models,
        projection,
        clock: ports.clock,
        ids: ports.ids,
        blobs: ports.blobs,
        attachmentSettings,
      }),
    onStop: stopSweep,
  });
};
