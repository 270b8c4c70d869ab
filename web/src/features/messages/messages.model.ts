import type { ChatView } from '@veil/contracts';
import type { DisplayMessage } from './display-message.ts';

/** A chat's loaded history: a window of consecutive messages, oldest first. */
export interface MessageWindow {
  messages: DisplayMessage[];
  /** Older messages exist on the server. */
  hasMore: boolean;
}

/** Reply preview length (docs/web.md, "Screens": Replies). */
export const replyPreviewLength = 30;

/**
 * Adds messages to a history. A message can arrive twice (the HTTP response and the socket,
 * or a catch-up page overlapping live ones), so `_id` decides identity; read receipts of both
 * copies are kept. The result is ordered by `seq`, whatever order things arrived in.
 */
export const mergeMessages = (
  current: readonly DisplayMessage[],
  incoming: readonly DisplayMessage[],
): DisplayMessage[] => {
  const byId = new Map(current.map((message) => [message._id, message] as const));
  for (const message of incoming) {
    const known = byId.get(message._id);
    byId.set(message._id, known ? { ...message, seenBy: { ...known.seenBy, ...message.seenBy } } : message);
  }
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
};

export const newestSeq = (messages: readonly DisplayMessage[]): number | undefined => messages.at(-1)?.seq;

/** How many of the newest loaded messages a reconnect reads again: edits, deletions and reactions may have changed them meanwhile. */
export const rereadOnReconnect = 200;

/**
 * Where catch-up after a reconnect reads from: before the newest loaded messages (up to
 * `rereadOnReconnect`), which are read again for the changes made to them while the socket was
 * down, and never after the newest message someone else sent. The user's own messages join the
 * window when the server stores them, which can be after messages this tab missed, so they prove
 * nothing about what came before them.
 */
export const catchUpAfter = (messages: readonly DisplayMessage[], myId: string): number => {
  const fromOthers = messages.findLast((m) => m.sender._id !== myId);
  const reread = messages.at(-rereadOnReconnect) ?? messages[0];
  return Math.min(fromOthers?.seq ?? Infinity, reread ? reread.seq - 1 : 0);
};

/**
 * Merges a page read again after a reconnect. The page holds every message after `after` up to
 * its newest that the user may still see, so a loaded message in that range it lacks was deleted
 * for the user on another device meanwhile and goes. Anything newer than the page's newest is
 * left alone: it may have arrived live after the server answered.
 */
export const mergeReread = (
  current: readonly DisplayMessage[],
  page: readonly DisplayMessage[],
  after: number,
): DisplayMessage[] => {
  const through = newestSeq(page) ?? after;
  const kept = new Set(page.map((m) => m._id));
  const stillThere = current.filter((m) => m.seq <= after || m.seq > through || kept.has(m._id));
  const known = new Map(current.map((m) => [m._id, m] as const));
  return mergeMessages(
    stillThere,
    page.map((read) => newerOf(known.get(read._id), read)),
  );
};

/**
 * A change told live while the page was on its way is newer than the page's copy: a tombstone
 * stays one, and a later edit is kept.
 */
const newerOf = (known: DisplayMessage | undefined, read: DisplayMessage): DisplayMessage =>
  known && ((known.deleted && !read.deleted) || (known.editedAt ?? '') > (read.editedAt ?? ''))
    ? known
    : read;

export const oldestSeq = (messages: readonly DisplayMessage[]): number | undefined => messages[0]?.seq;

/** The other members of a chat, by id (the current user excluded). */
export const otherMemberIds = (chat: Pick<ChatView, 'participants'>, myId: string): string[] =>
  chat.participants.map((p) => p._id).filter((id) => id !== myId);

/**
 * Own messages show two ticks once the others have seen them: in a one-to-one chat the
 * recipient, in a group every other member (one reader is not "seen" for a group).
 */
export const isSeenByOthers = (
  message: Pick<DisplayMessage, 'seenBy'>,
  othersIds: readonly string[],
): boolean => othersIds.length > 0 && othersIds.every((id) => message.seenBy[id] === true);

export const replyPreview = (text: string): string => text.slice(0, replyPreviewLength);

/** The name a chat is shown under: the group's name, or the other person's. */
export const chatTitle = (chat: Pick<ChatView, 'isGroupChat' | 'chatName' | 'participants'>): string =>
  chat.isGroupChat ? chat.chatName : (chat.participants[0]?.username ?? chat.chatName);

/**
 * Chat list filter (docs/web.md, "Screens": Chat list): participant usernames and a group's name,
 * case-insensitive substring (names compared in Unicode NFC, so a typed "Zoë" finds a stored one).
 */
export const matchesChatFilter = (
  chat: Pick<ChatView, 'participants' | 'isGroupChat' | 'chatName'>,
  filter: string,
): boolean => {
  const folded = (text: string) => text.normalize('NFC').toLowerCase();
  const needle = folded(filter.trim());
  return (
    !needle ||
    (chat.isGroupChat && folded(chat.chatName).includes(needle)) ||
    chat.participants.some((p) => folded(p.username).includes(needle))
  );
};
