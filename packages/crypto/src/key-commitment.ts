import { bytesToBase64 } from './base64.ts';
import { utf8 } from './digest.ts';

/** The label the commitment is a MAC of; a new label is a new commitment scheme. */
export const keyCommitmentLabel = 'veil key commitment 1';

/**
 * A commitment to a message key: HMAC-SHA256 under the raw 32-byte AES key of a fixed label,
 * base64. AES-GCM does not commit to its key, so one ciphertext can be made to open under two
 * keys to two texts ("invisible salamanders"); a signature over this value binds the one key the
 * sender used, and a reader whose unwrapped key gives another value was handed a different key.
 */
export const keyCommitmentOf = async (rawKey: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> => {
  const key = await crypto.subtle.importKey('raw', rawKey, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return bytesToBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8(keyCommitmentLabel))));
};
