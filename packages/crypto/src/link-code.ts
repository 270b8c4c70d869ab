import { decodeCrockford, encodeCrockford, groupCrockford, normalizeCrockford } from './crockford-base32.ts';

/**
 * The code a new browser shows so that a logged-in one can find its link: the link's 128-bit id
 * and a 12-bit check, as 28 characters of Crockford's base32 in 7 groups of 4
 * (`7KQ2-M9XD-…`), the same alphabet and forgiving reading as the recovery key. The check lets
 * the screen say "typo" before asking the server. The QR code carries the same text.
 *
 * It carries no key: the old browser gets the new browser's one-time public key through the link
 * itself, after a commitment to it (docs/crypto.md, "Linking a browser"), so the code stays short
 * enough to type.
 */
const idBytes = 16;
const codeChars = 28;
const groupSize = 4;

/** 16 bytes of id and the first 12 bits of SHA-256 over them (the encoder drops the last 4 bits). */
const withCheck = async (id: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> => {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', id));
  const bytes = new Uint8Array(idBytes + 2);
  bytes.set(id);
  bytes[idBytes] = digest[0]!;
  bytes[idBytes + 1] = digest[1]! & 0xf0;
  return bytes;
};

const hexToBytes = (hex: string): Uint8Array<ArrayBuffer> | null => {
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
};

/** The link code of a link id (32 lowercase hex characters), formatted for display. */
export const linkCodeOf = async (linkId: string): Promise<string> => {
  const id = hexToBytes(linkId);
  if (!id) throw new TypeError('A link id is 32 lowercase hexadecimal characters');
  return groupCrockford(encodeCrockford(await withCheck(id)), groupSize);
};

/**
 * The link id in what a person typed, pasted or scanned; null when it is not a link code (wrong
 * length, a character outside the alphabet, or a check that does not match: a typo).
 */
export const linkIdOfCode = async (input: string): Promise<string | null> => {
  const canonical = normalizeCrockford(input, codeChars);
  if (!canonical) return null;
  const bytes = decodeCrockford(canonical, idBytes + 2);
  const id = bytes.slice(0, idBytes);
  const expected = await withCheck(id);
  if (expected[idBytes] !== bytes[idBytes] || expected[idBytes + 1] !== bytes[idBytes + 1]) return null;
  return Array.from(id, (byte) => byte.toString(16).padStart(2, '0')).join('');
};

/**
 * What the new browser's QR code carries: the link code and the commitment to its one-time
 * public key (`linkCommitment`, 32 bytes base64). A scan then checks the key the new browser
 * reveals against what its own screen showed, so a relay that swaps the key is caught on a
 * scan whatever the digits say; the code alone (typed) still links by the digits.
 */
const qrPrefix = 'VEIL-LINK-1';
const commitmentPattern = /^[A-Za-z0-9+/]{43}=$/;

export const linkQrTextOf = (code: string, commitment: string): string => {
  if (!commitmentPattern.test(commitment)) throw new TypeError('A link commitment is 32 bytes of base64');
  return `${qrPrefix} ${code} ${commitment}`;
};

/**
 * The code and commitment in a scanned or typed text: a QR text gives both, anything else is
 * taken as a code alone (commitment null). A QR text with a damaged commitment gives null.
 */
export const readLinkQrText = (text: string): { code: string; commitment: string | null } | null => {
  const parts = text.trim().split(/\s+/);
  if (parts[0] !== qrPrefix) return { code: text, commitment: null };
  const [, code, commitment] = parts;
  if (parts.length !== 3 || !code || !commitment || !commitmentPattern.test(commitment)) return null;
  return { code, commitment };
};
