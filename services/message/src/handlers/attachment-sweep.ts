import { attachmentFolder, attachmentStreamId } from '@veil/contracts';
import { newEvent } from '@veil/kernel';
import type { Ports } from '@veil/ports';
import type { MessageReadModels } from '../projections/timeline.projection.ts';
import type { AttachmentSettings } from '../settings.ts';

type Deps = Pick<Ports, 'clock' | 'ids' | 'blobs' | 'log'> & {
  store: Ports['bus'];
  models: Pick<MessageReadModels, 'attachments'>;
  settings: Pick<AttachmentSettings, 'graceSeconds'>;
};

/**
 * Removes uploads that no message was sent with within the grace period: their chunks first,
 * then an AttachmentRemoved event (a crash between the two leaves the upload to the next sweep).
 * Returns how many it removed.
 */
export const sweepUnsentAttachments = async (deps: Deps): Promise<number> => {
  const cutoff = new Date(deps.clock.now().getTime() - deps.settings.graceSeconds * 1000).toISOString();
  const stale = await deps.models.attachments.find({
    state: { $in: ['uploading', 'complete'] },
    startedAt: { $lt: cutoff },
  });
  let removed = 0;
  for (const doc of stale.filter((d) => !d.sentWith)) {
    await deps.blobs.deleteFolder(attachmentFolder(doc._id));
    await deps.store.append(
      'attachment',
      newEvent(deps, 'AttachmentRemoved', attachmentStreamId(doc._id), {
        blobId: doc._id,
        reason: 'unreferenced',
      }),
    );
    removed++;
  }
  return removed;
};

/** Runs the sweep every `sweepIntervalSeconds`; a failed sweep is logged and tried at the next tick. */
export const scheduleAttachmentSweep = (
  deps: Deps & { settings: Pick<AttachmentSettings, 'graceSeconds' | 'sweepIntervalSeconds'> },
): (() => Promise<void>) => {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = sweepUnsentAttachments(deps).then(
      (removed) => {
        if (removed > 0) deps.log.info({ removed }, 'removed uploads never sent with a message');
      },
      (err: unknown) => deps.log.warn({ err }, 'attachment sweep failed; trying again at the next interval'),
    );
  };
  const timer = setInterval(tick, deps.settings.sweepIntervalSeconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};
