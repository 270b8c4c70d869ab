import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { operation } from './rpc.ts';

/** One blob as the server knows it: opaque id, chat, encrypted size, chunk count. */
export interface AttachmentBlobView {
  blobId: string;
  chatId: string;
  size: number;
  chunkCount: number;
}

const blobOfUser = z.object({ userId: idSchema, blobId: idSchema });

/**
 * The message service's attachment operations (served under the message contract). `userId`
 * always comes from the verified token.
 */
export const attachmentOperations = {
  /** A member of `chatId` starts an upload of `size` encrypted bytes; refused over the size limit or the quota. */
  startUpload: operation<{ blob: AttachmentBlobView }>()(
    z.object({ userId: idSchema, chatId: idSchema, size: z.number().int().nonnegative() }),
  ),
  /** The uploader's own upload still in progress (NOT_FOUND otherwise): where its chunks may go. */
  uploadInProgress: operation<{ blob: AttachmentBlobView }>()(blobOfUser),
  /** Every chunk is stored: the blob may now be sent with a message. */
  completeUpload: operation<{ blob: AttachmentBlobView }>()(blobOfUser),
  /** The uploader cancels an upload no message was sent with; its chunks are removed. */
  cancelUpload: operation<Record<string, never>>()(blobOfUser),
  /** A complete blob, for a current member of its chat (NOT_FOUND for anyone else). */
  readableBlob: operation<{ blob: AttachmentBlobView }>()(blobOfUser),
};
