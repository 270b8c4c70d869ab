import { limits } from './limits.ts';

/**
 * How an encrypted attachment of `size` bytes splits into chunks. Every chunk but the last is
 * `limits.attachmentChunkBytes` (256 KiB of file plus a 16-byte AES-GCM tag, the chunk size of
 * `@veil/crypto`'s attachment format); the last is 17 bytes to that size; an empty file is one
 * 16-byte chunk. Sizes that no file encrypts to (`null`) are refused when an upload starts.
 */
export interface AttachmentGeometry {
  chunkCount: number;
  /** The file's own size: what the size limit and quota are about. */
  fileBytes: number;
  chunkBytes(index: number): number;
}

const tagBytes = 16;

export const attachmentGeometry = (size: number): AttachmentGeometry | null => {
  const full = limits.attachmentChunkBytes;
  if (!Number.isSafeInteger(size) || size < tagBytes) return null;
  const chunkCount = Math.max(1, Math.ceil(size / full));
  const last = size - (chunkCount - 1) * full;
  // A last chunk of 1..16 bytes would be a tag without its file bytes; only the empty file has one of 16.
  if (last < tagBytes || (last === tagBytes && chunkCount > 1)) return null;
  return {
    chunkCount,
    fileBytes: size - chunkCount * tagBytes,
    chunkBytes: (index) => (index === chunkCount - 1 ? last : full),
  };
};

/** Where a blob's encrypted chunks are stored: one object per chunk, under the blob's folder. */
export const attachmentFolder = (blobId: string): string => `attachments/${blobId}/`;
export const attachmentChunkKey = (blobId: string, index: number): string =>
  `${attachmentFolder(blobId)}${index}`;
