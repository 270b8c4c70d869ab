import type { AttachmentEvent, MessageEvent } from '@veil/contracts';
import type { StagedCollection } from '@veil/kernel';
import type { IndexSpec } from '@veil/ports';

/**
 * The message service's view of every encrypted file: whose, which chat, how big, and whether a
 * message was sent with it. Learnt from the attachment context and from MessageSent's
 * `attachments`; the two logs may be replayed in either order, so each handler merges with what
 * the other wrote.
 */
export interface AttachmentDoc {
  _id: string;
  chatId: string;
  uploaderId: string;
  /** Encrypted bytes. */
  size: number;
  /** `discarded`: its message was deleted or expired; its chunks are being removed (then `removed`). */
  state: 'uploading' | 'complete' | 'discarded' | 'removed';
  startedAt: string;
  /** The message it was sent with (and that message's clientMessageId). */
  sentWith?: { messageId: string; clientMessageId?: string };
}

export const attachmentIndexes: IndexSpec[] = [
  { fields: { uploaderId: 1, state: 1 } },
  { fields: { state: 1, startedAt: 1 } },
];

type MessageSent = Extract<MessageEvent, { type: 'MessageSent' }>;

export const applyAttachmentEvent = async (
  event: AttachmentEvent,
  attachments: StagedCollection<AttachmentDoc>,
): Promise<void> => {
  const existing = await attachments.get(event.data.blobId);
  switch (event.type) {
    case 'AttachmentUploadStarted': {
      const { blobId, chatId, uploaderId, size } = event.data;
      await attachments.put({
        _id: blobId,
        chatId,
        uploaderId,
        size,
        startedAt: event.occurredAt,
        state: existing?.state ?? 'uploading',
        ...(existing?.sentWith && { sentWith: existing.sentWith }),
      });
      return;
    }
    case 'AttachmentUploadCompleted':
      if (existing && existing.state === 'uploading')
        await attachments.put({ ...existing, state: 'complete' });
      return;
    case 'AttachmentRemoved':
      if (existing && existing.state !== 'removed') await attachments.put({ ...existing, state: 'removed' });
      return;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
};

/** A message sent with files: each is now kept (the sweep removes only files no message names). */
export const markSentAttachments = async (
  event: MessageSent,
  attachments: StagedCollection<AttachmentDoc>,
): Promise<void> => {
  const { attachments: ids, messageId, chatId, senderId, clientMessageId } = event.data;
  if (!ids?.length) return;
  const sentWith = { messageId, ...(clientMessageId !== undefined && { clientMessageId }) };
  const stored = new Map((await attachments.getMany(ids)).map((doc) => [doc._id, doc]));
  for (const id of ids) {
    // Replayed before its upload's events, which then merge into this.
    await attachments.put({
      _id: id,
      chatId,
      uploaderId: senderId,
      size: 0,
      state: 'complete',
      startedAt: event.occurredAt,
      ...stored.get(id),
      sentWith,
    });
  }
};

/**
 * A message deleted for everyone or expired: its files may no longer be read, and the message
 * expiry job removes their chunks and records AttachmentRemoved (`message-expiry.ts`). A file
 * already removed stays removed (the attachment log may be replayed ahead of the message log).
 */
export const discardAttachments = async (
  ids: readonly string[] | undefined,
  attachments: StagedCollection<AttachmentDoc>,
): Promise<void> => {
  if (!ids?.length) return;
  for (const doc of await attachments.getMany(ids)) {
    if (doc.state !== 'removed' && doc.state !== 'discarded')
      await attachments.put({ ...doc, state: 'discarded' });
  }
};
