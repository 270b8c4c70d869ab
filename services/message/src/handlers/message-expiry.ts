import { attachmentFolder, attachmentStreamId, messageStreamId } from '@veil/contracts';
import { newEvent } from '@veil/kernel';
import type { MessageTimeline, Ports } from '@veil/ports';
import type { MessageReadModels } from '../projections/timeline.projection.ts';

type Deps = Pick<Ports, 'clock' | 'ids' | 'blobs' | 'log'> & {
  store: Ports['bus'];
  models: Pick<MessageReadModels, 'attachments'>;
  messages: Pick<MessageTimeline, 'expiring' | 'nextExpiry'>;
};

/** Work done per pass and kind: a backlog (after a long stop) is worked off pass after pass. */
const batch = 200;

/**
 * Records MessageExpired for every message whose time has come. The schedule is the timeline's
 * `expiresAt` index (over the log, or in its read model), so it survives a restart and a rebuild. The event
 * id is derived from the message, so two replicas (or two passes) that expire the same message
 * at once store it once; applying it twice changes nothing anyway.
 */
export const expireDueMessages = async (deps: Deps): Promise<number> => {
  const now = deps.clock.now().toISOString();
  const due = await deps.messages.expiring(now, batch);
  await Promise.all(
    due.map((doc) =>
      deps.store.append(
        'message',
        newEvent(
          deps,
          'MessageExpired',
          messageStreamId(doc._id),
          { messageId: doc._id, chatId: doc.chat, ...(doc.attachments && { attachments: doc.attachments }) },
          `expire-${doc._id}`,
        ),
      ),
    ),
  );
  return due.length;
};

/**
 * Removes the chunks of files whose message was deleted for everyone or expired, then records
 * AttachmentRemoved (a crash between the two leaves the file to the next pass).
 */
export const removeDiscardedFiles = async (deps: Deps): Promise<number> => {
  const discarded = await deps.models.attachments.find({ state: 'discarded' }, { limit: batch });
  for (const doc of discarded) {
    await deps.blobs.deleteFolder(attachmentFolder(doc._id));
    await deps.store.append(
      'attachment',
      newEvent(
        deps,
        'AttachmentRemoved',
        attachmentStreamId(doc._id),
        { blobId: doc._id, reason: 'deleted' },
        `removed-${doc._id}`,
      ),
    );
  }
  return discarded.length;
};

/** Milliseconds until the next message expires, if one does. */
const untilNextExpiry = async (deps: Deps): Promise<number | null> => {
  const now = deps.clock.now();
  const next = await deps.messages.nextExpiry(now.toISOString());
  return next ? Date.parse(next) - now.getTime() : null;
};

/**
 * Expires messages and removes discarded files: a pass at start (what fell due while Veil was
 * down), then one when the next message falls due, and at least every `checkSeconds` (messages
 * sent meanwhile, files of deletions). A failed pass is logged and tried at the next one.
 */
export const scheduleMessageExpiry = (deps: Deps & { checkSeconds: number }): (() => Promise<void>) => {
  const maxWaitMs = deps.checkSeconds * 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const pass = async () => {
    let waitMs = maxWaitMs;
    try {
      const expired = await expireDueMessages(deps);
      const removed = await removeDiscardedFiles(deps);
      if (expired || removed) deps.log.info({ expired, removed }, 'expired messages and removed their files');
      const next = await untilNextExpiry(deps);
      if (expired === batch || removed === batch) waitMs = 0;
      else if (next !== null) waitMs = Math.min(maxWaitMs, Math.max(0, next));
    } catch (err) {
      deps.log.warn({ err }, 'message expiry failed; trying again at the next pass');
    }
    if (stopped) return;
    timer = setTimeout(run, waitMs);
    timer.unref();
  };
  const run = () => {
    running = pass();
  };
  run();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
};
