import type { MessageEvent } from './events/message.events.ts';
import type { MessageSignature, MessageView, SealedReaction } from './http/schemas.ts';

type EventOf<T extends MessageEvent['type']> = Extract<MessageEvent, { type: T }>;

/**
 * What one message shows after the events of its stream so far: the fields of its MessageView,
 * with the sender and the replied message by id. The message service's timeline documents are
 * this plus what only it keeps; the realtime fan-out folds the same state from the log for the
 * quotes it embeds. Both apply events through the functions below, so the two cannot drift.
 */
export interface MessageState {
  _id: string;
  chat: string;
  sender: string;
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  replyTo: string | null;
  seenBy: Record<string, true>;
  createdAt: string;
  /** The position of its MessageSent in the message log: increases along every chat's history. */
  seq: number;
  /** The sender's key for this message, when it sent one: a retry finds the stored message by it. */
  clientMessageId?: string;
  /** The sender's signature, when the message was signed. */
  signature?: MessageSignature;
  editedAt?: string;
  /** The sender's signature over the last edit, when it was signed. */
  editSignature?: MessageSignature;
  /** Deleted for everyone: content, iv and keys are empty, reactions gone. */
  deleted?: true;
  /** The sender's signature over the deletion, when it was signed. */
  deleteSignature?: MessageSignature;
  /** Each member's encrypted reaction, by user id. */
  reactions?: Record<string, SealedReaction>;
  /** When it disappears (docs/disappearing-messages.md). */
  expiresAt?: string;
  /** Members' own copies of the message key re-wrapped for their current key, by user id. */
  rewrappedKeys?: Record<string, string>;
}

/** The state a MessageSent event makes (`seenBy` is carried over when the event is applied again). */
export const sentMessage = (
  event: EventOf<'MessageSent'>,
  position: number,
  seenBy: Record<string, true> = {},
): MessageState => {
  const { messageId, chatId, senderId, content, iv, encryptedKeys, replyTo } = event.data;
  const { clientMessageId, signature, expiresAt } = event.data;
  return {
    _id: messageId,
    chat: chatId,
    sender: senderId,
    content,
    iv,
    encryptedKeys,
    replyTo,
    seenBy,
    createdAt: event.occurredAt,
    seq: position,
    ...(clientMessageId !== undefined && { clientMessageId }),
    ...(signature !== undefined && { signature }),
    ...(expiresAt !== undefined && { expiresAt }),
  };
};

/**
 * The new text has a new key, sealed for every member's current key: re-wrapped copies of the old
 * key are moot, and so is the signature of the edit before.
 */
export const editedMessage = <T extends MessageState>(message: T, event: EventOf<'MessageEdited'>): T => {
  const { rewrappedKeys: _replaced, editSignature: _previous, ...kept } = message;
  const { content, iv, encryptedKeys, signature } = event.data;
  return {
    ...(kept as T),
    content,
    iv,
    encryptedKeys,
    editedAt: event.occurredAt,
    ...(signature && { editSignature: signature }),
  };
};

/**
 * The tombstone of a message deleted for everyone: who sent it, when, where in the history, and
 * nothing of its content. Built from the MessageDeleted event alone, because a replay no longer
 * meets the message's MessageSent (erased from the log); what it keeps of the message before,
 * it takes from `existing`.
 */
export const deletedMessage = (
  event: EventOf<'MessageDeleted'>,
  existing: MessageState | null,
): MessageState => {
  // A disappearing message deleted for everyone still disappears, tombstone and all.
  const expiresAt = event.data.expiresAt ?? existing?.expiresAt;
  return {
    _id: event.data.messageId,
    chat: event.data.chatId,
    sender: event.data.senderId,
    content: '',
    iv: '',
    encryptedKeys: {},
    replyTo: existing?.replyTo ?? null,
    seenBy: existing?.seenBy ?? {},
    createdAt: event.data.sentAt,
    seq: event.data.seq,
    deleted: true,
    ...(event.data.signature && { deleteSignature: event.data.signature }),
    ...(expiresAt && { expiresAt }),
  };
};

export const reactedMessage = <T extends MessageState>(message: T, event: EventOf<'ReactionSet'>): T => {
  const { userId, content, iv, encryptedKeys, signature } = event.data;
  const reaction = { content, iv, encryptedKeys, ...(signature && { signature }) };
  return { ...message, reactions: { ...message.reactions, [userId]: reaction } };
};

/** The same message when the user had no reaction on it. */
export const unreactedMessage = <T extends MessageState>(
  message: T,
  event: EventOf<'ReactionRemoved'>,
): T => {
  if (!message.reactions?.[event.data.userId]) return message;
  const { [event.data.userId]: _removed, ...reactions } = message.reactions;
  return { ...message, reactions };
};

export const rewrappedMessage = <T extends MessageState>(
  message: T,
  event: EventOf<'MessageKeyRewrapped'>,
): T => {
  const { userId, encryptedKey } = event.data;
  return { ...message, rewrappedKeys: { ...message.rewrappedKeys, [userId]: encryptedKey } };
};

/** The same message when the user had already seen it. */
export const seenMessage = <T extends MessageState>(message: T, event: EventOf<'MessageSeen'>): T =>
  message.seenBy[event.data.userId]
    ? message
    : { ...message, seenBy: { ...message.seenBy, [event.data.userId]: true } };

/**
 * One message's state after one more event of its stream, in log order; null: none (never sent
 * here, or expired). Content that arrives after the deletion or expiry (an edit, a reaction or a
 * re-wrapped key racing it) changes nothing: it is erased from the log. Hiding a message for one
 * user changes nothing anyone else is shown.
 */
export const foldMessage = (
  message: MessageState | null,
  event: MessageEvent,
  position: number,
): MessageState | null => {
  const live = message && !message.deleted ? message : null;
  switch (event.type) {
    case 'MessageSent':
      return message?.deleted ? message : sentMessage(event, position, message?.seenBy);
    case 'MessageEdited':
      return live ? editedMessage(live, event) : message;
    case 'MessageDeleted':
      return deletedMessage(event, message);
    case 'MessageExpired':
      return null;
    case 'ReactionSet':
      return live ? reactedMessage(live, event) : message;
    case 'ReactionRemoved':
      return message && unreactedMessage(message, event);
    case 'MessageKeyRewrapped':
      return live ? rewrappedMessage(live, event) : message;
    case 'MessageSeen':
      return message && seenMessage(message, event);
    case 'MessageHidden':
      return message;
    default:
      // Every message event is named above; a type a newer writer adds changes nothing here.
      void (event satisfies never);
      return message;
  }
};

/** The API's MessageView of a message; `replyTo` is the view of the message it quotes, if any. */
export const messageViewOf = (message: MessageState, replyTo: MessageView | null): MessageView => ({
  _id: message._id,
  chat: message.chat,
  sender: { _id: message.sender },
  content: message.content,
  iv: message.iv,
  encryptedKeys: message.encryptedKeys,
  replyTo,
  seenBy: message.seenBy,
  createdAt: message.createdAt,
  seq: message.seq,
  ...(message.editedAt && { editedAt: message.editedAt }),
  ...(message.deleted && { deleted: true }),
  ...(message.reactions && Object.keys(message.reactions).length > 0 && { reactions: message.reactions }),
  ...(message.signature && !message.deleted && { signature: message.signature }),
  ...(message.clientMessageId && !message.deleted && { clientMessageId: message.clientMessageId }),
  ...(message.editSignature && !message.deleted && { editSignature: message.editSignature }),
  ...(message.rewrappedKeys && !message.deleted && { rewrappedKeys: message.rewrappedKeys }),
  ...(message.deleteSignature && message.deleted && { deleteSignature: message.deleteSignature }),
  ...(message.expiresAt && { expiresAt: message.expiresAt }),
});

/** A message as another one quotes it: its own quote is not nested further. */
export const quotedViewOf = (message: MessageState): MessageView => messageViewOf(message, null);
