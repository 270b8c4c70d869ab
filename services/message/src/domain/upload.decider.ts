import { attachmentGeometry, DomainError } from '@veil/contracts';
import type { Decider } from '@veil/kernel';

/** One encrypted file's upload (`att-<blobId>`), folded from its stream. */
export interface UploadState {
  uploaderId: string | null;
  chatId: string | null;
  /** Encrypted bytes, all chunks together. */
  size: number;
  state: 'none' | 'uploading' | 'complete' | 'removed';
}

/** What the handler reads for a command beside the stream: membership, storage, the chunks stored. */
export type UploadCommand =
  | {
      type: 'StartUpload';
      userId: string;
      chatId: string;
      blobId: string;
      size: number;
      /** Whether the uploader is a member of the chat now. */
      isMember: boolean;
      /** The uploader's files not yet removed, in encrypted bytes. */
      storedBytes: number;
      limits: { maxFileBytes: number; quotaBytes: number };
    }
  | { type: 'CompleteUpload'; userId: string; blobId: string; missingChunks: readonly number[] }
  | { type: 'CancelUpload'; userId: string; blobId: string; sentWithMessage: boolean };

/** Not yours, not there, or not in that state: one answer, so blob ids cannot be probed. */
export const fileNotFound = () => new DomainError('NOT_FOUND', 'File not found');

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/**
 * The rules of an upload (docs/attachments.md): a member of the chat starts it, for a size that
 * is the size of an encrypted file, within the file limit and their storage quota; only its
 * uploader completes it, once every chunk is stored, or cancels it, until a message is sent
 * with it.
 */
export const uploadDecider: Decider<UploadCommand, UploadState, 'attachment'> = {
  context: 'attachment',
  initialState: () => ({ uploaderId: null, chatId: null, size: 0, state: 'none' }),
  decide(command, upload) {
    switch (command.type) {
      case 'StartUpload': {
        const { userId, chatId, blobId, size, limits } = command;
        if (!command.isMember) throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
        const geometry = attachmentGeometry(size);
        if (!geometry)
          throw new DomainError('VALIDATION_FAILED', 'size is not the size of an encrypted file');
        if (geometry.fileBytes > limits.maxFileBytes)
          throw new DomainError(
            'PAYLOAD_TOO_LARGE',
            `Files are limited to ${megabytes(limits.maxFileBytes)}`,
          );
        if (command.storedBytes + size > limits.quotaBytes) {
          throw new DomainError(
            'PAYLOAD_TOO_LARGE',
            `Your files would pass your storage quota of ${megabytes(limits.quotaBytes)}`,
          );
        }
        if (upload.state !== 'none') throw new DomainError('VERSION_CONFLICT', 'That file id is taken');
        return [{ type: 'AttachmentUploadStarted', data: { blobId, chatId, uploaderId: userId, size } }];
      }
      case 'CompleteUpload': {
        if (upload.uploaderId !== command.userId || upload.state !== 'uploading') throw fileNotFound();
        const { missingChunks } = command;
        if (missingChunks.length > 0) {
          const shown = missingChunks.slice(0, 10).join(', ') + (missingChunks.length > 10 ? ', …' : '');
          throw new DomainError('VALIDATION_FAILED', `The upload is missing chunks ${shown}`);
        }
        return [{ type: 'AttachmentUploadCompleted', data: { blobId: command.blobId } }];
      }
      case 'CancelUpload':
        if (upload.uploaderId !== command.userId || upload.state === 'none' || upload.state === 'removed')
          throw fileNotFound();
        if (command.sentWithMessage)
          throw new DomainError('VALIDATION_FAILED', 'A file sent with a message cannot be cancelled');
        return [{ type: 'AttachmentRemoved', data: { blobId: command.blobId, reason: 'cancelled' } }];
    }
  },
  evolve(upload, event) {
    switch (event.type) {
      case 'AttachmentUploadStarted': {
        const { uploaderId, chatId, size } = event.data;
        return { uploaderId, chatId, size, state: 'uploading' };
      }
      case 'AttachmentUploadCompleted':
        return upload.state === 'uploading' ? { ...upload, state: 'complete' } : upload;
      case 'AttachmentRemoved':
        return { ...upload, state: 'removed' };
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
};
