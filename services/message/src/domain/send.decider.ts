import { DomainError, limits, type EventData, type MessageSignature } from '@veil/contracts';
import { checkSealedForMembers, checkSignatureFits } from './key-map.ts';

export interface SendMessage {
  /** The sender, from the verified token. */
  userId: string;
  chatId: string;
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  replyTo?: string | null | undefined;
  clientMessageId?: string | undefined;
  attachments?: string[] | undefined;
  signature?: MessageSignature | undefined;
}

/** What the command needs to know, read by the handler before it decides. */
export interface SendState {
  /** The chat's members, or null when there is no such chat. */
  members: readonly string[] | null;
  /** The chat of the message replied to (null when it does not exist); undefined: no reply. */
  replyToChat?: string | null;
  messageId: string;
  /** The blobs the command names, as stored (a missing one is absent). */
  attachments?: ReadonlyMap<string, SendableBlob>;
  /** The chat's disappearing timer in seconds (0 or absent: off). */
  disappearingSeconds?: number;
  /** When it is sent: with a timer, it expires that long after. */
  now: Date;
  /** A one-to-one chat whose two members blocked one another, either way. */
  blocked?: boolean;
}

/** What sending needs to know of a blob. */
export interface SendableBlob {
  chatId: string;
  uploaderId: string;
  state: 'uploading' | 'complete' | 'discarded' | 'removed';
  /** The message it was sent with, and that message's clientMessageId (a retry of it may name the blob again). */
  sentWith?: { messageId: string; clientMessageId?: string };
}

const chatNotFound = () => new DomainError('CHAT_NOT_FOUND', 'Chat not found');

/**
 * The rules of sending, without I/O: the chat exists and the sender is in it (a chat that is
 * not yours answers exactly like one that does not exist), the wrapped keys name exactly the
 * members, the ciphertext fits, and a reply quotes a message of this chat. In a one-to-one
 * chat neither member has blocked the other. In a chat with a
 * disappearing timer the message carries when it expires. Returns the MessageSent payload, or
 * throws the refusal.
 */
export const decideSend = (command: SendMessage, state: SendState): EventData<'MessageSent'> => {
  if (!state.members || !state.members.includes(command.userId)) throw chatNotFound();
  // The same answer whichever of the two blocked (docs/decisions.md, "Blocking").
  if (state.blocked) throw new DomainError('CONTACT_UNAVAILABLE', 'This user is not available');
  checkSealedForMembers(command, state.members, limits.messageCiphertextMaxChars, 'Message is too large');
  checkSignatureFits(command.signature, Object.keys(command.encryptedKeys), true, 'message');
  if (command.signature && !command.clientMessageId) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'A signed message needs its clientMessageId (the signature covers it)',
    );
  }
  if (command.replyTo && state.replyToChat !== command.chatId) {
    throw new DomainError('VALIDATION_FAILED', 'replyTo must be a message of this chat');
  }
  checkAttachments(command, state);
  return {
    messageId: state.messageId,
    chatId: command.chatId,
    senderId: command.userId,
    content: command.content,
    iv: command.iv,
    encryptedKeys: command.encryptedKeys,
    replyTo: command.replyTo ?? null,
    ...(command.clientMessageId && { clientMessageId: command.clientMessageId }),
    ...(command.attachments?.length && { attachments: command.attachments }),
    ...(command.signature && { signature: command.signature }),
    ...(state.disappearingSeconds && {
      expiresAt: new Date(state.now.getTime() + state.disappearingSeconds * 1000).toISOString(),
    }),
  };
};

/** Each file is a complete upload of this sender, to this chat, not yet sent with another message. */
const checkAttachments = (command: SendMessage, state: SendState) => {
  const ids = command.attachments ?? [];
  if (new Set(ids).size !== ids.length) {
    throw new DomainError('VALIDATION_FAILED', 'A file is named twice in attachments');
  }
  for (const id of ids) {
    const blob = state.attachments?.get(id);
    if (
      !blob ||
      blob.uploaderId !== command.userId ||
      blob.chatId !== command.chatId ||
      blob.state === 'removed' ||
      blob.state === 'discarded'
    ) {
      throw new DomainError('VALIDATION_FAILED', `Attachment ${id} is not a file you uploaded to this chat`);
    }
    if (blob.state !== 'complete')
      throw new DomainError('VALIDATION_FAILED', `Attachment ${id} is not fully uploaded`);
    const isRetry = command.clientMessageId && blob.sentWith?.clientMessageId === command.clientMessageId;
    if (blob.sentWith && !isRetry)
      throw new DomainError('VALIDATION_FAILED', `Attachment ${id} was already sent`);
  }
};
