/**
 * The recovery key: 160 random bits written as 32 characters of Crockford's base32 in 8 groups of
 * 4 (`7KQ2-M9XD-...`). Crockford's alphabet has no I, L, O or U, so what a person copies by hand
 * is hard to misread; reading is tolerant of case, spaces and dashes, and of O, I and L typed for
 * 0 and 1.
 */
const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const recoveryKeyBytes = 20;
const recoveryKeyChars = (recoveryKeyBytes * 8) / 5;
export const recoveryKeyGroupCount = 8;
const groupLength = recoveryKeyChars / recoveryKeyGroupCount;
const misreadings: Record<string, string> = { O: '0', I: '1', L: '1' };

const encode = (bytes: Uint8Array): string => {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
};

const decode = (chars: string): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(recoveryKeyBytes);
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of chars) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes[index++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return bytes;
};

/** The 8 groups of a recovery key, as shown (and as the user types two of them back). */
export const recoveryKeyGroups = (recoveryKey: string): string[] => {
  const canonical = normalizeRecoveryKey(recoveryKey) ?? '';
  return Array.from({ length: recoveryKeyGroupCount }, (_, i) =>
    canonical.slice(i * groupLength, (i + 1) * groupLength),
  );
};

/** A new recovery key, formatted for display: `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX`. */
export const generateRecoveryKey = (): string =>
  recoveryKeyGroups(encode(crypto.getRandomValues(new Uint8Array(recoveryKeyBytes)))).join('-');

/**
 * The canonical 32 characters of what a person typed or pasted, or null when it cannot be a
 * recovery key (wrong length, a character outside the alphabet).
 */
export const normalizeRecoveryKey = (input: string): string | null => {
  const chars = input
    .toUpperCase()
    .replace(/[\s\-_.]/g, '')
    .replace(/[OIL]/g, (char) => misreadings[char]!);
  if (chars.length !== recoveryKeyChars) return null;
  return [...chars].every((char) => alphabet.includes(char)) ? chars : null;
};

/** The recovery key's 20 random bytes; null when the input is not a recovery key. */
export const recoveryKeyBytesOf = (input: string): Uint8Array<ArrayBuffer> | null => {
  const canonical = normalizeRecoveryKey(input);
  return canonical ? decode(canonical) : null;
};
