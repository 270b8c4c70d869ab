/**
 * Crockford's base32, for codes a person reads and types: the alphabet has no I, L, O or U, so
 * what is copied by hand is hard to misread, and reading forgives case, separators, and O, I or
 * L typed for 0 and 1. Used by the recovery key and the link code.
 */
export const crockfordAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const misreadings: Record<string, string> = { O: '0', I: '1', L: '1' };

/** Five bits a character, most significant first; bits that do not fill a last character are dropped. */
export const encodeCrockford = (bytes: Uint8Array): string => {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += crockfordAlphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
};

/** `byteLength` bytes from canonical characters; bits past the characters are zero. */
export const decodeCrockford = (chars: string, byteLength: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(byteLength);
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of chars) {
    value = (value << 5) | crockfordAlphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes[index++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0 && index < byteLength) bytes[index] = (value << (8 - bits)) & 0xff;
  return bytes;
};

/**
 * What a person typed or pasted as canonical characters of length `length`, or null when it
 * cannot be one (wrong length, a character outside the alphabet).
 */
export const normalizeCrockford = (input: string, length: number): string | null => {
  const chars = input
    .toUpperCase()
    .replace(/[\s\-_.]/g, '')
    .replace(/[OIL]/g, (char) => misreadings[char]!);
  if (chars.length !== length) return null;
  return [...chars].every((char) => crockfordAlphabet.includes(char)) ? chars : null;
};

/** `canonical` in groups of `size` joined by dashes, as shown. */
export const groupCrockford = (canonical: string, size: number): string =>
  canonical.match(new RegExp(`.{1,${size}}`, 'g'))?.join('-') ?? '';
