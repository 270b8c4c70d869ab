import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The attachment context, owned by the message service. Stream `att-<blobId>`: the life of one
 * encrypted file. The server knows it only as an opaque blob id, its chat, its uploader and its
 * encrypted size; the name, type and key travel inside the message's ciphertext. A blob becomes
 * part of a message through that MessageSent's `attachments`.
 */
export const AttachmentUploadStarted = defineEvent(
  'AttachmentUploadStarted',
  z.object({
    blobId: idSchema,
    chatId: idSchema,
    uploaderId: idSchema,
    /** Encrypted bytes, all chunks together. */
    size: z.number().int().nonnegative(),
  }),
);
export const AttachmentUploadCompleted = defineEvent(
  'AttachmentUploadCompleted',
  z.object({ blobId: idSchema }),
);
export const AttachmentRemoved = defineEvent(
  'AttachmentRemoved',
  z.object({
    blobId: idSchema,
    /**
     * `cancelled` by its uploader; `unreferenced`: no message sent with it within the grace
     * period; `deleted`: its message was deleted for everyone or expired.
     */
    reason: z.enum(['cancelled', 'unreferenced', 'deleted']),
  }),
);

export const attachmentEventSchema = z.discriminatedUnion('type', [
  AttachmentUploadStarted,
  AttachmentUploadCompleted,
  AttachmentRemoved,
]);
export type AttachmentEvent = z.infer<typeof attachmentEventSchema>;

export const attachmentStreamId = (blobId: string) => `att-${blobId}`;
