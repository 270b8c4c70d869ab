import { DomainError, type EventData } from '@veil/contracts';

/** What deciding a re-wrap needs to know about one message. */
export interface RewrapTarget {
  chat: string;
  deleted: boolean;
  /** The members its key was wrapped for when it was sent (or last edited). */
  sealedFor: readonly string[];
  /** The member's re-wrapped copy stored already, if any. */
  rewrapped: string | undefined;
}

export interface RewrapState {
  messages: ReadonlyMap<string, RewrapTarget>;
  /** Current members, by chat id. */
  members: ReadonlyMap<string, readonly string[]>;
}

export interface RewrapCopy {
  messageId: string;
  encryptedKey: string;
}

/**
 * Re-wrapping, without I/O: a member may store a copy of their own message key for messages
 * that were sealed for them, in chats they are still in. The whole batch is refused on any
 * copy that is not theirs to give; a message deleted meanwhile, or a copy stored already, is
 * skipped, so a retried batch is harmless. Returns the MessageKeyRewrapped payloads.
 */
export const decideRewrap = (
  userId: string,
  copies: readonly RewrapCopy[],
  state: RewrapState,
): EventData<'MessageKeyRewrapped'>[] => {
  if (new Set(copies.map((copy) => copy.messageId)).size !== copies.length)
    throw new DomainError('VALIDATION_FAILED', 'Each message may appear once in copies');
  const decided: EventData<'MessageKeyRewrapped'>[] = [];
  for (const { messageId, encryptedKey } of copies) {
    const message = state.messages.get(messageId);
    // Not yours answers as "not found": message ids cannot be probed for existence.
    if (!message || !state.members.get(message.chat)?.includes(userId))
      throw new DomainError('MESSAGE_NOT_FOUND', 'Message not found');
    if (message.deleted || message.rewrapped === encryptedKey) continue;
    if (!message.sealedFor.includes(userId))
      throw new DomainError(
        'FORBIDDEN',
        'This message was never sealed for you: there is no copy of yours to re-wrap',
      );
    decided.push({ messageId, chatId: message.chat, userId, encryptedKey });
  }
  return decided;
};
