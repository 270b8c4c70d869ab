import { base64ToBytes } from './base64.ts';

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

export const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export const sha256Hex = async (bytes: Uint8Array<ArrayBuffer>): Promise<string> =>
  toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));

/** A public key's fingerprint: SHA-256 of its SPKI bytes, lowercase hex. */
export const keyFingerprint = (spki: string): Promise<string> => sha256Hex(base64ToBytes(spki));
