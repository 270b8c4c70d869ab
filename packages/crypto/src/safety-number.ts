import { base64ToBytes } from './base64.ts';
import { utf8 } from './digest.ts';

/**
 * Safety numbers, as Signal computes them (NumericFingerprintGenerator, version 0): per side,
 * SHA-512 over a version, the identity and the user id, then 5200 more rounds of SHA-512 over the
 * previous hash and the identity; the first 30 bytes as six 5-byte big-endian numbers mod 100000,
 * 5 digits each. The two 30-digit halves are sorted, so both people see the same 60 digits. An
 * identity here is both published keys (encryption and signing), each length-prefixed.
 */
export const safetyNumberIterations = 5200;
const version = new Uint8Array([0, 0]);

export interface Identity {
  userId: string;
  /** base64 SPKI */
  encryptionKey: string;
  signingKey: string;
}

const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

const lengthPrefixed = (bytes: Uint8Array): Uint8Array => {
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, bytes.length);
  return concat(length, bytes);
};

const identityBytes = (identity: Identity) =>
  concat(
    lengthPrefixed(base64ToBytes(identity.encryptionKey)),
    lengthPrefixed(base64ToBytes(identity.signingKey)),
  );

/** The 30 digits of one side. */
export const safetyNumberHalf = async (identity: Identity): Promise<string> => {
  const key = identityBytes(identity);
  let hash = new Uint8Array(
    await crypto.subtle.digest('SHA-512', concat(version, key, utf8(identity.userId))),
  );
  for (let i = 0; i < safetyNumberIterations; i++)
    hash = new Uint8Array(await crypto.subtle.digest('SHA-512', concat(hash, key)));
  let digits = '';
  for (let chunk = 0; chunk < 6; chunk++) {
    const value = hash.subarray(chunk * 5, chunk * 5 + 5).reduce((number, byte) => number * 256 + byte, 0);
    digits += String(value % 100_000).padStart(5, '0');
  }
  return digits;
};

/** The 60-digit safety number of two identities: the same whichever side computes it. */
export const safetyNumber = async (a: Identity, b: Identity): Promise<string> => {
  const halves = await Promise.all([safetyNumberHalf(a), safetyNumberHalf(b)]);
  return halves.sort().join('');
};

/** The number in groups of 5 digits, as it is shown and read aloud. */
export const safetyNumberGroups = (digits: string): string[] => digits.match(/\d{5}/g) ?? [];
