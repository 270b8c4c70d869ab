import express, { Router, type Request } from 'express';
import {
  attachmentChunkKey,
  attachmentFolder,
  attachmentGeometry,
  DomainError,
  idSchema,
  limits,
  parseWith,
  startUploadBodySchema,
} from '@veil/contracts';
import type { BlobStore } from '@veil/ports';
import { currentUserId } from '../../middleware/auth.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

/**
 * `/api/v1/attachments`: resumable uploads of encrypted files and their download, chunk by chunk
 * (docs/attachments.md). The message service decides who may do what; this router checks each
 * chunk's index and length against the size the upload declared and stores or serves its bytes.
 * Every answer about a blob that is not yours to see is 404.
 */
const chunkBody = express.raw({ type: 'application/octet-stream', limit: limits.attachmentChunkBytes });

const blobIdOf = (req: Request) => parseWith(idSchema, req.params.blobId);

const chunkIndexOf = (req: Request, chunkCount: number) => {
  const index = Number(req.params.index);
  if (!/^\d{1,9}$/.test(String(req.params.index)) || index >= chunkCount) {
    throw new DomainError('VALIDATION_FAILED', `Chunk index must be 0-${chunkCount - 1}`);
  }
  return index;
};

export const attachmentRoutes = ({
  services,
  blobs,
}: {
  services: ServiceClients;
  blobs: BlobStore;
}): Router => {
  const router = Router();

  router.post('/uploads', async (req, res) => {
    const { chatId, size } = parseWith(startUploadBodySchema, req.body);
    const { blob } = await services.message.startUpload({ userId: currentUserId(res), chatId, size });
    respond(res, 201, 'Upload started', { ...blob, chunkBytes: limits.attachmentChunkBytes });
  });

  /** Where an interrupted upload resumes: the chunks already stored. */
  router.get('/uploads/:blobId', async (req, res) => {
    const blobId = blobIdOf(req);
    const { blob } = await services.message.uploadInProgress({ userId: currentUserId(res), blobId });
    const folder = attachmentFolder(blobId);
    const received = (await blobs.list(folder))
      .map((key) => Number(key.slice(folder.length)))
      .filter((index) => Number.isInteger(index))
      .sort((a, b) => a - b);
    respond(res, 200, 'Upload in progress', { ...blob, chunkBytes: limits.attachmentChunkBytes, received });
  });

  router.put('/uploads/:blobId/chunks/:index', chunkBody, async (req, res) => {
    const blobId = blobIdOf(req);
    if (!Buffer.isBuffer(req.body)) {
      throw new DomainError('UNSUPPORTED_MEDIA', 'A chunk is sent as application/octet-stream');
    }
    const { blob } = await services.message.uploadInProgress({ userId: currentUserId(res), blobId });
    const index = chunkIndexOf(req, blob.chunkCount);
    const expected = attachmentGeometry(blob.size)!.chunkBytes(index);
    if (req.body.length !== expected) {
      throw new DomainError(
        'VALIDATION_FAILED',
        `Chunk ${index} must be ${expected} bytes, not ${req.body.length}`,
      );
    }
    const key = attachmentChunkKey(blobId, index);
    // A write cut short (its folder removed by a cancel meanwhile) leaves nothing half-written.
    await blobs
      .put(key, new Uint8Array(req.body), 'application/octet-stream')
      .catch(async (error: unknown) => {
        await blobs.delete(key);
        throw error;
      });
    // Cancelled (or swept) while this chunk was on its way: its folder is already gone, so this
    // chunk must go too.
    await services.message
      .uploadInProgress({ userId: currentUserId(res), blobId })
      .catch(async (error: unknown) => {
        await blobs.delete(key);
        throw error;
      });
    respond(res, 200, 'Chunk stored', { index });
  });

  router.post('/uploads/:blobId/complete', async (req, res) => {
    const { blob } = await services.message.completeUpload({
      userId: currentUserId(res),
      blobId: blobIdOf(req),
    });
    respond(res, 200, 'Upload complete', blob);
  });

  router.delete('/uploads/:blobId', async (req, res) => {
    await services.message.cancelUpload({ userId: currentUserId(res), blobId: blobIdOf(req) });
    respond(res, 200, 'Upload cancelled', {});
  });

  router.get('/blobs/:blobId', async (req, res) => {
    const { blob } = await services.message.readableBlob({
      userId: currentUserId(res),
      blobId: blobIdOf(req),
    });
    respond(res, 200, 'File', { ...blob, chunkBytes: limits.attachmentChunkBytes });
  });

  router.get('/blobs/:blobId/chunks/:index', async (req, res) => {
    const blobId = blobIdOf(req);
    const { blob } = await services.message.readableBlob({ userId: currentUserId(res), blobId });
    const stored = await blobs.get(attachmentChunkKey(blobId, chunkIndexOf(req, blob.chunkCount)));
    if (!stored) throw new DomainError('NOT_FOUND', 'File not found');
    res
      .status(200)
      .set({ 'Content-Type': 'application/octet-stream', 'X-Content-Type-Options': 'nosniff' })
      .end(Buffer.from(stored.bytes));
  });

  return router;
};
