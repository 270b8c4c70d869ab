/**
 * Length padding: a message's ciphertext tells its length to whoever stores it, so the plaintext
 * is padded to a size bucket before encryption (docs/crypto.md, "Length padding"). The padded
 * form starts with a version line no unpadded plaintext starts with (an old client's text never
 * starts with a NUL byte: `encodeMessageContent` wraps any that does), then the text's UTF-8
 * bytes, one 0x80 byte, and zeros up to the bucket (ISO/IEC 7816-4). Inside the AES-GCM
 * ciphertext, so the signature and the key commitment cover it; removed after decryption.
 */
const paddedPrefix = new TextEncoder().encode('\u0000veil:pad:1\n');

/** `message`: 256 bytes, then powers of two; `reaction`: one size for every emoji. */
export type Padding = 'message' | 'reaction';

/** The largest bucket a message fills: its ciphertext and tag stay within the server's 64 KiB of base64. */
const messageBucketMax = 48 * 1024 - 16;
const messageBucketMin = 256;
const reactionBucket = 64;

const nextPowerOfTwo = (n: number) => 2 ** Math.ceil(Math.log2(n));

/** The size `length` bytes (the version line and end marker included) are padded to. */
export const paddedSize = (length: number, padding: Padding): number => {
  if (padding === 'reaction') return Math.max(reactionBucket, nextPowerOfTwo(length));
  if (length <= messageBucketMin) return messageBucketMin;
  // Past the largest bucket, a text too long for the server is left as long as it is.
  return Math.max(length, Math.min(nextPowerOfTwo(length), messageBucketMax));
};

/** The UTF-8 bytes of `text`, padded. */
export const padPlaintext = (text: string, padding: Padding): Uint8Array<ArrayBuffer> => {
  const body = new TextEncoder().encode(text);
  const length = paddedPrefix.length + body.length + 1;
  const padded = new Uint8Array(paddedSize(length, padding));
  padded.set(paddedPrefix);
  padded.set(body, paddedPrefix.length);
  padded[paddedPrefix.length + body.length] = 0x80;
  return padded;
};

/** The text bytes of a decrypted plaintext: padding removed, an unpadded one as it is; null when the padding is broken. */
export const unpadPlaintext = (bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | null => {
  if (bytes.length < paddedPrefix.length || paddedPrefix.some((byte, index) => bytes[index] !== byte))
    return bytes;
  let end = bytes.length - 1;
  while (end >= paddedPrefix.length && bytes[end] === 0) end -= 1;
  return end >= paddedPrefix.length && bytes[end] === 0x80 ? bytes.slice(paddedPrefix.length, end) : null;
};
