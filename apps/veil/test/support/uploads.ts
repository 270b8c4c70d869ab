import { expect } from 'vitest';
import {
  encryptBlobInChunks,
  encryptedSizeOf,
  newAttachmentCipher,
  type AttachmentCipher,
} from '@veil/crypto';
import type { Api } from './api-client.ts';
import type { TestUser } from './users.ts';

/** A patterned file of `size` bytes, encrypted as the browser does: its chunks, in order. */
export const encryptedFile = async (size: number) => {
  const plain = Uint8Array.from({ length: size }, (_, i) => (i * 13) % 256);
  const cipher = await newAttachmentCipher(size);
  const chunks: Uint8Array[] = [];
  await encryptBlobInChunks(new Blob([plain]), cipher, async (_index, bytes) => {
    chunks.push(bytes);
  });
  return { plain, cipher, chunks };
};

export const startUpload = (api: Api, user: TestUser, chatId: string, size: number) =>
  api.post('/api/v1/attachments/uploads', { chatId, size }, user.accessToken);

export const putChunk = (
  api: Api,
  user: TestUser,
  blobId: string,
  index: number | string,
  bytes: Uint8Array,
) =>
  api.call('PUT', `/api/v1/attachments/uploads/${blobId}/chunks/${index}`, {
    token: user.accessToken,
    raw: { body: bytes, contentType: 'application/octet-stream' },
  });

/** Starts, stores every chunk and completes an upload over HTTP: the blob id. */
export const uploadFile = async (
  api: Api,
  user: TestUser,
  chatId: string,
  file: { chunks: Uint8Array[]; cipher: AttachmentCipher },
): Promise<string> => {
  const started = await startUpload(api, user, chatId, encryptedSizeOf(file.cipher.secret.size));
  expect(started.status).toBe(201);
  const { blobId } = started.body.data;
  for (const [index, bytes] of file.chunks.entries())
    expect((await putChunk(api, user, blobId, index, bytes)).status).toBe(200);
  const completed = await api.post(`/api/v1/attachments/uploads/${blobId}/complete`, {}, user.accessToken);
  expect(completed.status).toBe(200);
  return blobId as string;
};
