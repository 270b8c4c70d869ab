import {
  attachmentFolder,
  attachmentGeometry,
  attachmentStreamId,
  type AttachmentBlobView,
  type attachmentOperations,
} from '@veil/contracts';
import {
  appendDecided,
  loadAggregate,
  type Decided,
  type RpcImplementation,
  type RunningProjection,
} from '@veil/kernel';
import type { Ports } from '@veil/ports';
import { fileNotFound, uploadDecider } from '../domain/upload.decider.ts';
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

const viewOf = (doc: AttachmentDoc): AttachmentBlobView => ({
  blobId: doc._id,
  chatId: doc.chatId,
  size: doc.size,
  chunkCount: attachmentGeometry(doc.size)?.chunkCount ?? 0,
});

/**
 * Encrypted uploads (docs/attachments.md). The gateway stores the chunks' bytes; this service
 * decides who may upload, read, complete or cancel, records each blob's life as events, and
 * removes the bytes of cancelled uploads.
 */
export const attachmentHandlers = (deps: Deps): RpcImplementation<typeof attachmentOperations> => {
  const { store, models, projection, settings } = deps;

  const stored = (blobId: string) =>
    projection.readFresh('attachment', () => models.attachments.get(blobId), Boolean);

  const loadUpload = (blobId: string) => loadAggregate(store, uploadDecider, attachmentStreamId(blobId));

  /** Records what the upload's decider decided, with the version it decided on, applied before answering. */
  const record = async (blobId: string, decided: Decided<'attachment'>[], version: number) => {
    const positions = await appendDecided(deps, 'attachment', attachmentStreamId(blobId), decided, version);
    await projection.waitFor('attachment', positions.at(-1)!);
  };

  const storedBytesOf = async (userId: string) => {
    const live = await models.attachments.find({
      uploaderId: userId,
      state: { $in: ['uploading', 'complete'] },
    });
    return live.reduce((sum, doc) => sum + doc.size, 0);
  };

  /** The chunk indexes of an upload of `size` bytes that are not stored. */
  const missingChunks = async (blobId: string, size: number) => {
    const keys = new Set(await deps.blobs.list(attachmentFolder(blobId)));
    const count = attachmentGeometry(size)?.chunkCount ?? 0;
    return Array.from({ length: count }, (_, i) => i).filter(
      (index) => !keys.has(`${attachmentFolder(blobId)}${index}`),
    );
  };

  return {
    async startUpload({ userId, chatId, size }) {
      const blobId = deps.ids.next();
      const command = {
        type: 'StartUpload',
        userId,
        chatId,
        blobId,
        size,
        isMember: Boolean((await deps.membersOf(chatId))?.includes(userId)),
        storedBytes: await storedBytesOf(userId),
        limits: settings,
      } as const;
      // A new id: its stream is empty.
      await record(blobId, uploadDecider.decide(command, uploadDecider.initialState()), 0);
      return { blob: { blobId, chatId, size, chunkCount: attachmentGeometry(size)!.chunkCount } };
    },

    async uploadInProgress({ userId, blobId }) {
      const doc = await stored(blobId);
      if (!doc || doc.uploaderId !== userId || doc.state !== 'uploading') throw fileNotFound();
      return { blob: viewOf(doc) };
    },

    async completeUpload({ userId, blobId }) {
      const { state, version } = await loadUpload(blobId);
      // Only the uploader learns which chunks are missing; anyone else is answered "not found".
      const missing = state.uploaderId === userId ? await missingChunks(blobId, state.size) : [];
      const command = { type: 'CompleteUpload', userId, blobId, missingChunks: missing } as const;
      await record(blobId, uploadDecider.decide(command, state), version);
      return {
        blob: {
          blobId,
          chatId: state.chatId!,
          size: state.size,
          chunkCount: attachmentGeometry(state.size)!.chunkCount,
        },
      };
    },

    async cancelUpload({ userId, blobId }) {
      const { state, version } = await loadUpload(blobId);
      const sentWithMessage = Boolean((await stored(blobId))?.sentWith);
      const removed = uploadDecider.decide({ type: 'CancelUpload', userId, blobId, sentWithMessage }, state);
      // The bytes go before the removal is recorded: a crash between the two leaves a removal
      // to do again, never bytes nothing points to.
      await deps.blobs.deleteFolder(attachmentFolder(blobId));
      await record(blobId, removed, version);
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
        throw fileNotFound();
      return { blob: viewOf(doc) };
    },
  };
};
