/**
 * The rules of unread counts, without I/O. A member's unread messages in a chat are the others'
 * messages after the newest one the member has seen: seeing a message reads everything before
 * it, and sending one reads everything before it too (the sender was there).
 */
export interface UnreadState {
  /** The newest log position applied to this state: a repeated event changes nothing. */
  appliedPosition: number;
  /** Unread messages, oldest first, the newest `unreadKeptMax` of them. */
  unread: { messageId: string; seq: number }[];
  /** Unread messages older than the kept ones (counted, not kept). */
  unreadBeyond: number;
  /** The chat's newest message. */
  lastMessageId: string | null;
}

/** Enough for an exact badge ("99+" past 99) and for reading from the middle of a long backlog. */
export const unreadKeptMax = 200;

export const emptyUnreadState: UnreadState = {
  appliedPosition: 0,
  unread: [],
  unreadBeyond: 0,
  lastMessageId: null,
};

export const unreadCount = (state: UnreadState) => state.unread.length + state.unreadBeyond;

/** A message was sent in the chat (`seq` is its log position). */
export const afterMessage = (
  state: UnreadState,
  message: { messageId: string; seq: number; fromThisMember: boolean },
): UnreadState => {
  if (message.seq <= state.appliedPosition) return state;
  const base = { appliedPosition: message.seq, lastMessageId: message.messageId };
  if (message.fromThisMember) return { ...base, unread: [], unreadBeyond: 0 };
  const unread = [...state.unread, { messageId: message.messageId, seq: message.seq }];
  const dropped = Math.max(0, unread.length - unreadKeptMax);
  return { ...base, unread: unread.slice(dropped), unreadBeyond: state.unreadBeyond + dropped };
};

/**
 * The member saw a message of the chat. One among the kept unread reads it and everything before;
 * one older than them (or already read) reads nothing more that can be told apart, so the count
 * stays: the member's reader reports the newer messages it shows as well.
 */
export const afterSeen = (state: UnreadState, messageId: string): UnreadState => {
  const seen = state.unread.find((entry) => entry.messageId === messageId);
  if (!seen) return state;
  return { ...state, unread: state.unread.filter((entry) => entry.seq > seen.seq), unreadBeyond: 0 };
};

/** The member deleted a message for themselves: if it was unread, it is not any more. */
export const afterHidden = (state: UnreadState, messageId: string): UnreadState => {
  if (!state.unread.some((entry) => entry.messageId === messageId)) return state;
  return { ...state, unread: state.unread.filter((entry) => entry.messageId !== messageId) };
};
