import { DomainError } from '@veil/contracts';

/**
 * Every member must be able to read a message, and nobody else gets a key: the wrapped-key map
 * must name exactly the chat's current members. An older client sent group messages
 * keyed for one person only; Veil refuses such messages instead of storing unreadable ones.
 */
export const checkKeyMapCoversMembers = (
  encryptedKeys: Record<string, string>,
  members: readonly string[],
): void => {
  const keyed = Object.keys(encryptedKeys);
  const missing = members.filter((id) => !(id in encryptedKeys));
  const strangers = keyed.filter((id) => !members.includes(id));
  if (missing.length || strangers.length) {
    throw new DomainError(
      'KEY_MAP_MISMATCH',
      `encryptedKeys must hold exactly one key per chat member (missing: ${missing.length}, not members: ${strangers.length})`,
    );
  }
};

/**
 * Ciphertext as the server accepts it (a message, an edit, a reaction): keyed for exactly the
 * chat's members, and within its size limit.
 */
export const checkSealedForMembers = (
  sealed: { content: string; encryptedKeys: Record<string, string> },
  members: readonly string[],
  maxChars: number,
  tooLarge: string,
): void => {
  checkKeyMapCoversMembers(sealed.encryptedKeys, members);
  if (sealed.content.length > maxChars) throw new DomainError('PAYLOAD_TOO_LARGE', tooLarge);
};
