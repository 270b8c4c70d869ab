/**
 * The rules of unread counts, without I/O. A member's unread messages in a chat are the others'
 * messages after the newest one the member has seen or sent: seeing a message reads everything
 * before it, and sending one reads everything before it too (the sender was there).
 *
 * They are counted when asked for, walking the chat's timeline from its newest message back to
 * the first one that reads the rest, so a new message costs nobody's unread state a write: the
 * only state kept is each member's newest seen message (`seenUpTo`).
 */

/** What the count needs of a timeline entry. */
export interface TimelineEntry {
  /** A ULID: ids order as the messages were sent. */
  _id: string;
  sender: string;
  createdAt: string;
  encryptedKeys: Record<string, string>;
  deleted?: true;
  hiddenFor?: string[];
}

export interface Reader {
  userId: string;
  /** The newest message the reader has seen in the chat, if any. */
  seenUpTo: string | null;
  /** When the reader joined the group, if added after it began: nothing older is theirs to read. */
  joinedAt?: string;
}

/** Counted exactly up to here ("99+" shows past 99, and the divider needs no more). */
export const unreadCountedMax = 200;

export interface UnreadScan<T extends TimelineEntry> {
  count: number;
  /** The newest message the reader has not deleted for themselves: the chat list's preview. */
  preview: T | null;
  /** A message that reads everything older was met, or the count reached its maximum. */
  counted: boolean;
  /** Older messages cannot matter: they predate the reader's membership. */
  ended: boolean;
}

export const startUnreadScan = <T extends TimelineEntry>(): UnreadScan<T> => ({
  count: 0,
  preview: null,
  counted: false,
  ended: false,
});

/** Whether the scan needs older messages than it has been given. */
export const scanNeedsMore = (scan: UnreadScan<TimelineEntry>) =>
  !scan.ended && (!scan.counted || !scan.preview);

/** Continues a scan with the next messages, newest first. */
export const continueUnreadScan = <T extends TimelineEntry>(
  scan: UnreadScan<T>,
  newestFirst: readonly T[],
  reader: Reader,
): UnreadScan<T> => {
  const next = { ...scan };
  for (const entry of newestFirst) {
    if (!scanNeedsMore(next)) break;
    if (reader.joinedAt && entry.createdAt < reader.joinedAt) return { ...next, counted: true, ended: true };
    const hidden = entry.hiddenFor?.includes(reader.userId) ?? false;
    if (!hidden) next.preview ??= entry;
    if (next.counted) continue;
    // Sending reads the chat, even a message the sender later deleted for themselves.
    if (entry.sender === reader.userId || (reader.seenUpTo !== null && entry._id <= reader.seenUpTo)) {
      next.counted = true;
      continue;
    }
    // Deleted for everyone, deleted for the reader, or never keyed for them: nothing to read.
    if (!hidden && !entry.deleted && reader.userId in entry.encryptedKeys) next.count++;
    if (next.count >= unreadCountedMax) next.counted = true;
  }
  return next;
};

/** The newer of two seen messages (ULIDs order as sent): seeing an older one reads nothing more. */
export const newerSeen = (current: string | null, seen: string): string =>
  current !== null && current >= seen ? current : seen;
