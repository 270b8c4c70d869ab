import { decodeCrockford, encodeCrockford, normalizeCrockford } from './crockford-base32.ts';

/**
 * The recovery key: 160 random bits written as 32 characters of Crockford's base32 in 8 groups of
 * 4 (`7KQ2-M9XD-...`), read back as forgivingly as `crockford-base32.ts` allows.
 */
const recoveryKeyBytes = 20;
const recoveryKeyChars = (recoveryKeyBytes * 8) / 5;
export const recoveryKeyGroupCount = 8;
const groupLength = recoveryKeyChars / recoveryKeyGroupCount;

/** The 8 groups of a recovery key, as shown (and as the user types two of them back). */
export const recoveryKeyGroups = (recoveryKey: string): string[] => {
  const canonical = normalizeRecoveryKey(recoveryKey) ?? '';
  return Array.from({ length: recoveryKeyGroupCount }, (_, i) =>
    canonical.slice(i * groupLength, (i + 1) * groupLength),
  );
};

/** A new recovery key, formatted for display: `XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX`. */
export const generateRecoveryKey = (): string =>
  recoveryKeyGroups(encodeCrockford(crypto.getRandomValues(new Uint8Array(recoveryKeyBytes)))).join('-');

/**
 * The canonical 32 characters of what a person typed or pasted, or null when it cannot be a
 * recovery key (wrong length, a character outside the alphabet).
 */
export const normalizeRecoveryKey = (input: string): string | null =>
  normalizeCrockford(input, recoveryKeyChars);

/** The recovery key's 20 random bytes; null when the input is not a recovery key. */
export const recoveryKeyBytesOf = (input: string): Uint8Array<ArrayBuffer> | null => {
  const canonical = normalizeRecoveryKey(input);
  return canonical ? decodeCrockford(canonical, recoveryKeyBytes) : null;
};
