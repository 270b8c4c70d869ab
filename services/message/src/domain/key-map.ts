import { DomainError } from '@veil/contracts';

/**
 * Every member must be able to read a message, and nobody else gets a key: the wrapped-key map
 * must name exactly the chat's current members. The spec's original client sent group messages
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
