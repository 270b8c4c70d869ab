import {
  attachmentFolder,
  attachmentGeometry,
  attachmentStreamId,
  DomainError,
  type AttachmentBlobView,
  type AttachmentEvent,
  type attachmentOperations,
} from '@veil/contracts';
import { newEvent, type RpcImplementation, type RunningProjection } from '@veil/kernel';
import type { Ports } from '@veil/ports';
import type { AttachmentDoc } from '../projections/attachments.projection.ts';
import type { MessageReadModels } from '../projections/timeline.projection.ts';
import type { AttachmentSettings } from '../settings.ts';

type Deps = Pick<Ports, 'clock' | 'ids' | 'blobs'> & {
  store: Ports['bus'];
  models: MessageReadModels;
  projection: RunningProjection;
  settings: AttachmentSettings;
  /** The chat's current members (null: no such chat). */
  membersOf(chatId: string): Promise<readonly string[] | null>;
  /** Whether the user may read the files of this message of the chat (a member, or removed after it). */
  mayReadFilesOf(chatId: string, userId: string, messageId: string | undefined): Promise<boolean>;
};

/** Not yours, not there, or not in that state: one answer, so blob ids cannot be probed. */
const notFound = () => new DomainError('NOT_FOUND', 'File not found');

const viewOf = (doc: AttachmentDoc): AttachmentBlobView => ({
  blobId: doc._id,
  chatId: doc.chatId,
  size: doc.size,
  chunkCount: attachmentGeometry(doc.size)?.chunkCount ?? 0,
});

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/**
 * Encrypted uploads (docs/attachments.md). The gateway stores the chunks' bytes; this service
 * decides who may upload, read, complete or cancel, records each blob's life as events, and
 * removes the bytes of cancelled uploads.
 */
export const attachmentHandlers = (deps: Deps): RpcImplementation<typeof attachmentOperations> => {
  const { store, models, projection, settings } = deps;

  const appendAndApply = async (event: AttachmentEvent) => {
    const { position } = await store.append('attachment', event);
    await projection.waitFor('attachment', position);
  };

  const stored = (blobId: string) =>
    projection.readFresh('attachment', () => models.attachments.get(blobId), Boolean);

  const inProgress = async (userId: string, blobId: string) => {
    const doc = await stored(blobId);
    if (!doc || doc.uploaderId !== userId || doc.state !== 'uploading') throw notFound();
    return doc;
  };

  const storedBytesOf = async (userId: string) => {
    const live = await models.attachments.find({
      uploaderId: userId,
      state: { $in: ['uploading', 'complete'] },
    });
    return live.reduce((sum, doc) => sum + doc.size, 0);
  };

  return {
    async startUpload({ userId, chatId, size }) {
      if (!(await deps.membersOf(chatId))?.includes(userId))
        throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
      const geometry = attachmentGeometry(size);
      if (!geometry) throw new DomainError('VALIDATION_FAILED', 'size is not the size of an encrypted file');
      if (geometry.fileBytes > settings.maxFileBytes) {
        throw new DomainError(
          'PAYLOAD_TOO_LARGE',
          `Files are limited to ${megabytes(settings.maxFileBytes)}`,
        );
      }
      if ((await storedBytesOf(userId)) + size > settings.quotaBytes) {
        throw new DomainError(
          'PAYLOAD_TOO_LARGE',
          `Your files would pass your storage quota of ${megabytes(settings.quotaBytes)}`,
        );
      }
      const blobId = deps.ids.next();
      await appendAndApply(
        newEvent(deps, 'AttachmentUploadStarted', attachmentStreamId(blobId), {
          blobId,
          chatId,
          uploaderId: userId,
          size,
        }),
      );
      return { blob: { blobId, chatId, size, chunkCount: geometry.chunkCount } };
    },

    async uploadInProgress({ userId, blobId }) {
      return { blob: viewOf(await inProgress(userId, blobId)) };
    },

    async completeUpload({ userId, blobId }) {
      const blob = viewOf(await inProgress(userId, blobId));
      const keys = new Set(await deps.blobs.list(attachmentFolder(blobId)));
      const missing = Array.from({ length: blob.chunkCount }, (_, i) => i).filter(
        (index) => !keys.has(`${attachmentFolder(blobId)}${index}`),
      );
      if (missing.length > 0) {
        const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ', …' : '');
        throw new DomainError('VALIDATION_FAILED', `The upload is missing chunks ${shown}`);
      }
      await appendAndApply(
        newEvent(deps, 'AttachmentUploadCompleted', attachmentStreamId(blobId), { blobId }),
      );
      return { blob };
    },

    async cancelUpload({ userId, blobId }) {
      const doc = await stored(blobId);
      if (!doc || doc.uploaderId !== userId || doc.state === 'removed') throw notFound();
      if (doc.sentWith)
        throw new DomainError('VALIDATION_FAILED', 'A file sent with a message cannot be cancelled');
      await deps.blobs.deleteFolder(attachmentFolder(blobId));
      await appendAndApply(
        newEvent(deps, 'AttachmentRemoved', attachmentStreamId(blobId), { blobId, reason: 'cancelled' }),
      );
      // A chunk stored while the cancel was on its way passed its check before the removal was
      // applied; from now on every chunk's check fails (and removes it), so one more pass
      // leaves nothing behind.
      await deps.blobs.deleteFolder(attachmentFolder(blobId));
      return {};
    },

    async readableBlob({ userId, blobId }) {
      const doc = await stored(blobId);
      if (
        !doc ||
        doc.state !== 'complete' ||
        !(await deps.mayReadFilesOf(doc.chatId, userId, doc.sentWith?.messageId))
      )
        throw notFound();
      return { blob: viewOf(doc) };
    },
  };
};
