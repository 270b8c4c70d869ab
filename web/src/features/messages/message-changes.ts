import type { DisplayMessage } from './display-message.ts';

/**
 * Changes to messages already shown, as pure functions over a chat's history: an edit, a
 * deletion for everyone (a tombstone), a deletion for me (gone), a reaction. Each may arrive
 * twice (the HTTP answer and the socket event): applying one again changes nothing.
 */

/** A sender may edit or delete for everyone this long after sending (the server enforces it). */
export const changeWindowMs = 24 * 60 * 60 * 1000;

export const canChangeForEveryone = (message: DisplayMessage, myId: string, now = Date.now()): boolean =>
  message.sender._id === myId && !message.deleted && now - Date.parse(message.createdAt) < changeWindowMs;

export const edited = (
  message: DisplayMessage,
  change: Pick<DisplayMessage, 'content' | 'iv' | 'encryptedKeys' | 'decryptedContent' | 'readState'> &
    Pick<DisplayMessage, 'verification' | 'editSignature' | 'mentions' | 'frankingKey'> & {
      editedAt: string;
    },
): DisplayMessage => {
  if (message.deleted) return message;
  // The edit's mentions replace the old ones: ranges counted over the old text mean nothing now;
  // so does its franking key (the old one franks the old text; an edit without one has none).
  const { mentions: _old, frankingKey: _oldKey, ...rest } = message;
  return { ...rest, ...change };
};

export const tombstone = (message: DisplayMessage): DisplayMessage => {
  const { reactions: _reactions, editedAt: _editedAt, mentions: _mentions, ...rest } = message;
  return {
    ...rest,
    deleted: true,
    content: '',
    iv: '',
    encryptedKeys: {},
    decryptedContent: '',
    readState: 'read',
    reactionTexts: {},
  };
};

/** `emoji` null: the member took their reaction back. */
export const reacted = (message: DisplayMessage, userId: string, emoji: string | null): DisplayMessage => {
  const { [userId]: _previous, ...others } = message.reactionTexts;
  return { ...message, reactionTexts: emoji === null ? others : { ...others, [userId]: emoji } };
};

/** Applies `change` to the message with `messageId`, if the history holds it. */
export const changeMessage = (
  messages: DisplayMessage[],
  messageId: string,
  change: (message: DisplayMessage) => DisplayMessage,
): DisplayMessage[] => messages.map((message) => (message._id === messageId ? change(message) : message));

export const withoutMessage = (messages: DisplayMessage[], messageId: string): DisplayMessage[] =>
  messages.filter((message) => message._id !== messageId);

export interface ReactionCount {
  emoji: string;
  userIds: string[];
  mine: boolean;
}

/** Reactions grouped by emoji, the most used first (then in the order first given). */
export const reactionCounts = (reactionTexts: Record<string, string>, myId: string): ReactionCount[] => {
  const byEmoji = new Map<string, string[]>();
  for (const [userId, emoji] of Object.entries(reactionTexts)) {
    byEmoji.set(emoji, [...(byEmoji.get(emoji) ?? []), userId]);
  }
  return [...byEmoji.entries()]
    .map(([emoji, userIds]) => ({ emoji, userIds, mine: userIds.includes(myId) }))
    .sort((a, b) => b.userIds.length - a.userIds.length);
};
