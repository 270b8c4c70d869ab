import { foldMessage, type MessageEvent, type MessageState } from '@veil/contracts';

/**
 * A message as the message service reads it from its timeline: what it shows (the fold every
 * reader of the log applies, `foldMessage`), and what only the service uses.
 */
export interface TimelineMessage extends MessageState {
  /** Members who deleted it for themselves: their history leaves it out. */
  hiddenFor?: string[];
  /** Blob ids of the files sent with it. */
  attachments?: string[];
}

/** A stretch of one chat's history, in the order of `seq` (the MessageSent's position). */
export interface TimelinePageQuery {
  chatId: string;
  /** Only messages with a smaller `seq`. */
  before?: number;
  /** Only messages with a greater `seq`. */
  after?: number;
  /** Only messages sent at or after this time (ISO 8601). */
  sentFrom?: string;
  /** Only messages sent before this time (ISO 8601). */
  sentBefore?: string;
  /** Newest first (paging back, the unread walk) or oldest first (catching up after `after`). */
  order: 'newest' | 'oldest';
  /** At most this many; a page may stop short only at the end of the history. */
  limit: number;
}

/**
 * What the message service asks of its timeline: every message of every chat, as folded from
 * its stream of events (MessageSent, edits, reactions, receipts, deletions, expiries). Kept as a
 * read model of its own where the read models follow the log (cluster mode), or answered from
 * the event log itself through indexes over it (embedded mode). Reads see every event whose
 * append was acknowledged, in embedded mode; in cluster mode, what the projection has applied.
 * Expired messages are gone; a message deleted for everyone is its tombstone.
 */
export interface MessageTimeline {
  get(messageId: string): Promise<TimelineMessage | null>;
  /** Those found, in no particular order. */
  getMany(messageIds: readonly string[]): Promise<TimelineMessage[]>;
  page(query: TimelinePageQuery): Promise<TimelineMessage[]>;
  /** The message a sender stored under its `clientMessageId` (a retry's key), if any. */
  bySenderKey(senderId: string, clientMessageId: string): Promise<TimelineMessage | null>;
  /** Messages whose `expiresAt` is at or before `until`, soonest first, at most `limit`. */
  expiring(until: string, limit: number): Promise<TimelineMessage[]>;
  /** The soonest `expiresAt` after `after`, if a message has one. */
  nextExpiry(after: string): Promise<string | null>;
}

/**
 * A message's timeline state after one more event of its stream, in log order; null: none
 * (never sent here, or expired). `foldMessage` plus who hid it and its files: both adapters of
 * the port apply this, the table as it stores documents, the log as it reads a stream.
 */
export const foldTimelineMessage = (
  message: TimelineMessage | null,
  event: MessageEvent,
  position: number,
): TimelineMessage | null => {
  const next = foldMessage(message, event, position) as TimelineMessage | null;
  if (!next || next === message) {
    if (event.type !== 'MessageHidden' || !message) return next;
    const hiddenFor = message.hiddenFor ?? [];
    return hiddenFor.includes(event.data.userId)
      ? message
      : { ...message, hiddenFor: [...hiddenFor, event.data.userId] };
  }
  switch (event.type) {
    case 'MessageSent': {
      const { attachments } = event.data;
      return { ...next, ...(attachments?.length && { attachments }) };
    }
    case 'MessageDeleted':
      // The tombstone stays out of the histories of those who hid the message.
      return { ...next, ...(message?.hiddenFor && { hiddenFor: message.hiddenFor }) };
    default:
      return next;
  }
};
