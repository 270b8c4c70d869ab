import {
  encryptBlobInChunks,
  encryptedChunkSizeOf,
  encryptedSizeOf,
  newAttachmentCipher,
  type AttachmentCipher,
  type AttachmentRef,
} from '@veil/crypto';
import { isApiError } from '../../lib/api-error.ts';
import { apiJson, authorizedFetch, chunkFailure } from './attachment-http.ts';

/**
 * One file's encrypted upload (docs/attachments.md): the file is read, encrypted and sent one
 * 256 KiB chunk at a time, so memory stays flat whatever its size. A chunk that fails for a
 * passing reason (no network, 429, 5xx) is tried again after a pause; a `resume` after a
 * failure asks the server which chunks it holds and sends only the rest, encrypted again under
 * the same key and nonces (so byte for byte the same chunks).
 */
export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
}

interface UploadTarget {
  blobId: string;
  chunkCount: number;
}

const attemptsPerChunk = 5;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const isPassing = (error: unknown) =>
  !isApiError(error) || error.kind === 'network' || error.status === 429 || (error.status ?? 0) >= 500;

export interface EncryptedUpload {
  /** Runs (or resumes) the upload; resolves with what the message needs to carry. */
  run(
    onProgress: (progress: UploadProgress) => void,
    signal: AbortSignal,
  ): Promise<Omit<AttachmentRef, 'thumbnail'>>;
  /** Removes what was stored (a cancel); nothing happens if the upload never started. */
  discard(): Promise<void>;
}

export const encryptedUpload = (file: File, chatId: string): EncryptedUpload => {
  let cipher: AttachmentCipher | null = null;
  let target: UploadTarget | null = null;

  const putChunk = async (index: number, bytes: Uint8Array<ArrayBuffer>, signal: AbortSignal) => {
    for (let attempt = 1; ; attempt++) {
      let failure: unknown;
      try {
        const response = await authorizedFetch(`attachments/uploads/${target!.blobId}/chunks/${index}`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/octet-stream' },
          // A Blob body: Chromium kept every ArrayBuffer body it had sent in the renderer's
          // memory (about 3 MB per MB uploaded), a Blob's it does not (docs/benchmarks/attachments.md).
          body: new Blob([bytes]),
          signal,
        });
        if (response.ok) return;
        failure = await chunkFailure(response);
      } catch (error) {
        if (signal.aborted) throw error;
        failure = { kind: 'network', status: null, statusText: '', message: 'The connection was lost' };
      }
      if (!isPassing(failure) || attempt === attemptsPerChunk) throw failure;
      const retryAfterMs = (failure as { retryAfterMs?: number }).retryAfterMs;
      await pause(retryAfterMs ?? 500 * 2 ** attempt, signal);
    }
  };

  return {
    async run(onProgress, signal) {
      cipher ??= await newAttachmentCipher(file.size);
      const totalBytes = encryptedSizeOf(file.size);
      let received = new Set<number>();
      if (target) {
        const status = await apiJson<{ received: number[] }>(`attachments/uploads/${target.blobId}`, {
          signal,
        });
        received = new Set(status.received);
      } else {
        target = await apiJson<UploadTarget>('attachments/uploads', {
          method: 'POST',
          json: { chatId, size: totalBytes },
          signal,
        });
      }
      let sentBytes = [...received].reduce((sum, index) => sum + encryptedChunkSizeOf(file.size, index), 0);
      onProgress({ sentBytes, totalBytes });
      const firstMissing = Array.from({ length: cipher.chunkCount }, (_, i) => i).find(
        (i) => !received.has(i),
      );
      await encryptBlobInChunks(
        file,
        cipher,
        async (index, bytes) => {
          if (received.has(index)) return;
          await putChunk(index, bytes, signal);
          sentBytes += bytes.length;
          onProgress({ sentBytes, totalBytes });
        },
        firstMissing ?? cipher.chunkCount,
      );
      await apiJson(`attachments/uploads/${target.blobId}/complete`, { method: 'POST', json: {}, signal });
      return {
        ...cipher.secret,
        blobId: target.blobId,
        name: file.name,
        type: file.type,
      };
    },
    async discard() {
      if (!target) return;
      await apiJson(`attachments/uploads/${target.blobId}`, { method: 'DELETE' }).catch(() => undefined);
    },
  };
};
