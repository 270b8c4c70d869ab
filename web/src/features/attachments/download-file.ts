import { openAttachmentCipher, type AttachmentRef } from '@veil/crypto';
import { authorizedFetch, chunkFailure } from './attachment-http.ts';

/**
 * Fetches a file's encrypted chunks one at a time and decrypts each in the browser. The
 * plaintext parts go into a Blob, which the browser may keep on disk for a large file; only
 * one encrypted chunk is in the page's memory at a time.
 */
export const decryptAttachment = async (
  ref: AttachmentRef,
  onProgress: (fraction: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<Blob> => {
  const cipher = await openAttachmentCipher(ref);
  const parts: Blob[] = [];
  for (let index = 0; index < cipher.chunkCount; index++) {
    const response = await authorizedFetch(
      `attachments/blobs/${ref.blobId}/chunks/${index}`,
      signal ? { signal } : {},
    );
    if (!response.ok) throw await chunkFailure(response);
    const plain = await cipher.decryptChunk(index, new Uint8Array(await response.arrayBuffer()));
    parts.push(new Blob([plain]));
    onProgress((index + 1) / cipher.chunkCount);
  }
  return new Blob(parts, { type: ref.type || 'application/octet-stream' });
};

/** Hands a decrypted file to the browser's download, under the name its sender gave it. */
export const saveBlob = (blob: Blob, name: string) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has taken the blob by the next task; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
};
