import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';

/**
 * Attachments, encrypted in the browser in fixed-size chunks so that memory stays flat for a
 * file of any size: each chunk is read (`Blob.slice`), encrypted and uploaded on its own.
 *
 * - A fresh AES-GCM 256-bit key per file, and a random 8-byte nonce prefix per file.
 * - Chunk `i` is AES-GCM with nonce `prefix ‖ uint32be(i)` and additional data
 *   `veil attachment 1|<i>|<final>` (`final` is 1 on the last chunk only), so a chunk moved to
 *   another index, a chunk dropped, a file cut after any chunk or a chunk from another file fails
 *   to decrypt. Each ciphertext chunk is its plaintext plus the 16-byte tag.
 * - The key, nonce prefix, name, type and size travel only inside the encrypted message
 *   (`AttachmentKey`); the server stores the chunks under an opaque blob id.
 */
export const attachmentFormatVersion = 1;
/** Plaintext bytes per chunk (the last chunk may be shorter; an empty file is one empty chunk). */
export const attachmentChunkBytes = 256 * 1024;
const tagBytes = 16;
const prefixBytes = 8;

/** What a reader needs to decrypt one file: sent only inside the end-to-end encrypted message. */
export interface AttachmentKey {
  /** Raw AES-GCM key, base64. */
  key: string;
  /** The file's 8-byte nonce prefix, base64. */
  noncePrefix: string;
  /** Plaintext size in bytes. */
  size: number;
}

export const chunkCountOf = (plainSize: number): number =>
  Math.max(1, Math.ceil(plainSize / attachmentChunkBytes));

/** Ciphertext size of a file of `plainSize` bytes: what the upload declares to the server. */
export const encryptedSizeOf = (plainSize: number): number => plainSize + chunkCountOf(plainSize) * tagBytes;

/** Ciphertext length of chunk `index` of a file of `plainSize` bytes. */
export const encryptedChunkSizeOf = (plainSize: number, index: number): number =>
  Math.min(attachmentChunkBytes, plainSize - index * attachmentChunkBytes) + tagBytes;

const nonceOf = (prefix: Uint8Array, index: number) => {
  const nonce = new Uint8Array(12);
  nonce.set(prefix, 0);
  new DataView(nonce.buffer).setUint32(prefixBytes, index);
  return nonce;
};

const additionalData = (index: number, final: boolean) =>
  new TextEncoder().encode(`veil attachment ${attachmentFormatVersion}|${index}|${final ? 1 : 0}`);

/** One file's key material, in memory while its chunks are encrypted or decrypted. */
export interface AttachmentCipher {
  readonly secret: AttachmentKey;
  readonly chunkCount: number;
  encryptChunk(index: number, plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
  decryptChunk(index: number, ciphertext: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
}

const checkIndex = (index: number, chunkCount: number) => {
  if (!Number.isInteger(index) || index < 0 || index >= chunkCount) {
    throw new VeilCryptoError('ERR_ATTACHMENT_FORMAT', `Chunk ${index} is outside the file`);
  }
};

const cipherOf = (key: CryptoKey, prefix: Uint8Array, secret: AttachmentKey): AttachmentCipher => {
  const chunkCount = chunkCountOf(secret.size);
  const params = (index: number) => ({
    name: 'AES-GCM',
    iv: nonceOf(prefix, index),
    additionalData: additionalData(index, index === chunkCount - 1),
  });
  return {
    secret,
    chunkCount,
    async encryptChunk(index, plaintext) {
      checkIndex(index, chunkCount);
      if (plaintext.length !== encryptedChunkSizeOf(secret.size, index) - tagBytes) {
        throw new VeilCryptoError('ERR_ATTACHMENT_FORMAT', `Chunk ${index} has the wrong length`);
      }
      return new Uint8Array(await crypto.subtle.encrypt(params(index), key, plaintext as BufferSource));
    },
    async decryptChunk(index, ciphertext) {
      checkIndex(index, chunkCount);
      if (ciphertext.length !== encryptedChunkSizeOf(secret.size, index)) {
        throw new VeilCryptoError('ERR_ATTACHMENT_DAMAGED', `Chunk ${index} has the wrong length`);
      }
      try {
        return new Uint8Array(await crypto.subtle.decrypt(params(index), key, ciphertext as BufferSource));
      } catch {
        throw new VeilCryptoError('ERR_ATTACHMENT_DAMAGED', `Chunk ${index} does not decrypt`);
      }
    },
  };
};

/** A fresh key and nonce prefix for a file of `size` bytes. */
export const newAttachmentCipher = async (size: number): Promise<AttachmentCipher> => {
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new VeilCryptoError('ERR_ATTACHMENT_FORMAT', 'A file size is a whole number of bytes');
  }
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const prefix = crypto.getRandomValues(new Uint8Array(prefixBytes));
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key));
  return cipherOf(key, prefix, { key: bytesToBase64(raw), noncePrefix: bytesToBase64(prefix), size });
};

/** The cipher of a received file, from the key material its message carried. */
export const openAttachmentCipher = async (secret: AttachmentKey): Promise<AttachmentCipher> => {
  let raw: Uint8Array<ArrayBuffer>;
  let prefix: Uint8Array<ArrayBuffer>;
  try {
    raw = base64ToBytes(secret.key);
    prefix = base64ToBytes(secret.noncePrefix);
  } catch {
    throw new VeilCryptoError('ERR_ATTACHMENT_FORMAT', 'The attachment key is not base64');
  }
  if (
    raw.length !== 32 ||
    prefix.length !== prefixBytes ||
    !Number.isSafeInteger(secret.size) ||
    secret.size < 0
  ) {
    throw new VeilCryptoError('ERR_ATTACHMENT_FORMAT', 'The attachment key is malformed');
  }
  const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
  return cipherOf(key, prefix, secret);
};

/**
 * Encrypts a Blob (a File) chunk by chunk, reading one chunk at a time: `onChunk` gets each
 * ciphertext chunk in order and may upload it before the next is read.
 */
export const encryptBlobInChunks = async (
  file: Blob,
  cipher: AttachmentCipher,
  onChunk: (index: number, ciphertext: Uint8Array<ArrayBuffer>) => Promise<void>,
  startAt = 0,
): Promise<void> => {
  for (let index = startAt; index < cipher.chunkCount; index++) {
    const start = index * attachmentChunkBytes;
    const plain = new Uint8Array(await file.slice(start, start + attachmentChunkBytes).arrayBuffer());
    await onChunk(index, await cipher.encryptChunk(index, plain));
  }
};
