import { describe, expect, it } from 'vitest';
import {
  afterHidden,
  afterMessage,
  afterSeen,
  emptyUnreadState,
  unreadCount,
  unreadKeptMax,
} from './unread.ts';

const received = (state = emptyUnreadState, from = 1, to = 3) => {
  let next = state;
  for (let seq = from; seq <= to; seq++)
    next = afterMessage(next, { messageId: `m${seq}`, seq, fromThisMember: false });
  return next;
};

describe('unread counts', () => {
  it("counts others' messages and remembers the newest", () => {
    const state = received();
    expect(unreadCount(state)).toBe(3);
    expect(state.lastMessageId).toBe('m3');
  });

  it('ignores an event it has applied already (a redelivery)', () => {
    const state = received();
    expect(afterMessage(state, { messageId: 'm2', seq: 2, fromThisMember: false })).toBe(state);
  });

  it('reads everything up to the message seen, and not the newer ones', () => {
    const state = afterSeen(received(), 'm2');
    expect(state.unread).toEqual([{ messageId: 'm3', seq: 3 }]);
    expect(afterSeen(state, 'm2')).toBe(state);
  });

  it("reads everything when the member sends, and keeps that message as the chat's newest", () => {
    const state = afterMessage(received(), { messageId: 'm4', seq: 4, fromThisMember: true });
    expect(unreadCount(state)).toBe(0);
    expect(state.lastMessageId).toBe('m4');
  });

  it('keeps the newest unread and counts the older ones, until a kept one is seen', () => {
    const many = unreadKeptMax + 50;
    const state = received(emptyUnreadState, 1, many);
    expect(state.unread).toHaveLength(unreadKeptMax);
    expect(unreadCount(state)).toBe(many);
    expect(unreadCount(afterSeen(state, 'm20'))).toBe(many);
    expect(unreadCount(afterSeen(state, `m${many - 10}`))).toBe(10);
  });

  it('drops a message the member deleted for themselves, and only that one', () => {
    const state = afterHidden(received(), 'm2');
    expect(state.unread.map((entry) => entry.messageId)).toEqual(['m1', 'm3']);
    expect(afterHidden(state, 'm2')).toBe(state);
  });
});
