import { DomainError, type MessageSignature } from '@veil/contracts';

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

/**
 * A version 2 or 3 signature's fields against what it signs, as far as the server can tell
 * without reading it: key-log heads only for ids the key map (or, with nothing sealed, the chat)
 * holds, a key commitment whenever text is sealed, and a franking tag (version 3) on a message or
 * an edit only. Whether they are true is the readers' check.
 */
export const checkSignatureFits = (
  signature: MessageSignature | undefined,
  readers: readonly string[],
  sealsText: boolean,
  signs: 'message' | 'edit' | 'action' = 'action',
): void => {
  if (signature?.version === undefined) return;
  if (signature.version === 3 && signs === 'action')
    throw new DomainError(
      'SIGNATURE_MISMATCH',
      'Only a message or an edit carries a franking tag (signature version 3)',
    );
  const strangers = Object.keys(signature.keyLogHeads ?? {}).filter((id) => !readers.includes(id));
  if (strangers.length)
    throw new DomainError(
      'SIGNATURE_MISMATCH',
      `signature.keyLogHeads names ${strangers.length} id(s) the message is not sealed for`,
    );
  if (sealsText && !signature.keyCommitment)
    throw new DomainError('SIGNATURE_MISMATCH', 'signature.keyCommitment is required for sealed text');
  if (!sealsText && signature.keyCommitment)
    throw new DomainError('SIGNATURE_MISMATCH', 'signature.keyCommitment commits to nothing sealed here');
};
