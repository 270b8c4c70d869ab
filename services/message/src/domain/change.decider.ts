import { DomainError, limits, type EventData, type MessageSignature } from '@veil/contracts';
import { checkSealedForMembers, checkSignatureFits } from './key-map.ts';

/** What deciding a change needs to know about the message, read by the handler first. */
export interface TargetMessage {
  chat: string;
  sender: string;
  createdAt: string;
  seq: number;
  deleted?: boolean;
  /** Who has a reaction on it now. */
  reactedBy: readonly string[];
  /** Who hid it from their own history. */
  hiddenFor: readonly string[];
  /** Blob ids of its files. */
  attachments?: readonly string[];
  /** When it disappears, if it does. */
  expiresAt?: string;
}

export interface ChangeState {
  /** null: no such message. */
  message: TargetMessage | null;
  /** The members of the message's chat now (null: unknown chat). */
  members: readonly string[] | null;
  now: Date;
}

export interface Sealed {
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
}

const notFound = () => new DomainError('MESSAGE_NOT_FOUND', 'Message not found');

const isMember = (userId: string, state: ChangeState) => state.members?.includes(userId) ?? false;

/**
 * A message someone may see: it exists, and they are in its chat. Anyone else is told it does
 * not exist, so message ids cannot be probed. Its own sender, having left the chat, still
 * learns that it exists (and is then refused with 403).
 */
const visibleTo = (userId: string, state: ChangeState): TargetMessage => {
  const { message } = state;
  if (!message || (!isMember(userId, state) && message.sender !== userId)) throw notFound();
  return message;
};

/** Edit and delete-for-everyone: only the sender, still a member, within the time limit. */
const requireSendersChange = (userId: string, state: ChangeState, what: 'edit' | 'delete'): TargetMessage => {
  const message = visibleTo(userId, state);
  if (message.sender !== userId)
    throw new DomainError('FORBIDDEN', `Only the sender can ${what} this message`);
  if (!isMember(userId, state)) throw new DomainError('FORBIDDEN', 'You are no longer a member of this chat');
  if (state.now.getTime() - Date.parse(message.createdAt) > limits.messageChangeWindowMs)
    throw new DomainError(
      'TIME_LIMIT_PASSED',
      `A message can only be ${what === 'edit' ? 'edited' : 'deleted'} within 24 hours of sending`,
    );
  return message;
};

/**
 * Editing, without I/O: the sender's own message, not deleted, within 24 hours, while still in
 * the chat; the new ciphertext is keyed for exactly the chat's current members (as a new
 * message is) and fits the size limit. Returns the MessageEdited payload.
 */
export const decideEdit = (
  command: Sealed & { userId: string; messageId: string; signature?: MessageSignature | undefined },
  state: ChangeState,
): EventData<'MessageEdited'> => {
  const message = requireSendersChange(command.userId, state, 'edit');
  if (message.deleted) throw notFound();
  checkSealedForMembers(command, state.members!, limits.messageCiphertextMaxChars, 'Message is too large');
  checkSignatureFits(command.signature, Object.keys(command.encryptedKeys), true, 'edit');
  return {
    messageId: command.messageId,
    chatId: message.chat,
    senderId: command.userId,
    content: command.content,
    iv: command.iv,
    encryptedKeys: command.encryptedKeys,
    ...(command.signature && { signature: command.signature }),
  };
};

/**
 * Deleting for everyone, without I/O: the same rights as editing. A message already deleted
 * needs nothing more (null), so a retried delete succeeds. The payload keeps what the
 * tombstone shows, since the events that carried the message are erased.
 */
export const decideDeleteForEveryone = (
  command: { userId: string; messageId: string; signature?: MessageSignature | undefined },
  state: ChangeState,
): EventData<'MessageDeleted'> | null => {
  const target = visibleTo(command.userId, state);
  if (target.deleted) {
    if (target.sender === command.userId) return null;
    throw notFound();
  }
  const message = requireSendersChange(command.userId, state, 'delete');
  checkSignatureFits(command.signature, state.members!, false);
  return {
    messageId: command.messageId,
    chatId: message.chat,
    senderId: message.sender,
    deletedBy: command.userId,
    sentAt: message.createdAt,
    seq: message.seq,
    ...(command.signature && { signature: command.signature }),
    ...(message.attachments?.length && { attachments: [...message.attachments] }),
    ...(message.expiresAt && { expiresAt: message.expiresAt }),
  };
};

/** Deleting for me, without I/O: any member, any message of the chat, at any time; once. */
export const decideHide = (
  command: { userId: string; messageId: string },
  state: ChangeState,
): EventData<'MessageHidden'> | null => {
  if (!state.message || !isMember(command.userId, state)) throw notFound();
  if (state.message.hiddenFor.includes(command.userId)) return null;
  return { messageId: command.messageId, chatId: state.message.chat, userId: command.userId };
};

/**
 * Reacting, without I/O: a member, on a message that is not deleted. A reaction is keyed for
 * exactly the current members, like a message, and small. `null` takes the member's reaction
 * back (nothing to record if there is none).
 */
export const decideReaction = (
  command: {
    userId: string;
    messageId: string;
    reaction: (Sealed & { signature?: MessageSignature | undefined }) | null;
    /** With `reaction: null`: the member's signature over taking it back. */
    removalSignature?: MessageSignature | undefined;
  },
  state: ChangeState,
): EventData<'ReactionSet'> | EventData<'ReactionRemoved'> | null => {
  const { message } = state;
  if (!message || message.deleted || !isMember(command.userId, state)) throw notFound();
  const ids = { messageId: command.messageId, chatId: message.chat, userId: command.userId };
  if (!command.reaction) {
    if (!message.reactedBy.includes(command.userId)) return null;
    checkSignatureFits(command.removalSignature, state.members!, false);
    return { ...ids, ...(command.removalSignature && { signature: command.removalSignature }) };
  }
  checkSealedForMembers(
    command.reaction,
    state.members!,
    limits.reactionCiphertextMaxChars,
    'A reaction is one emoji',
  );
  const { signature, ...sealed } = command.reaction;
  checkSignatureFits(signature, Object.keys(sealed.encryptedKeys), true);
  return { ...ids, ...sealed, ...(signature && { signature }) };
};
