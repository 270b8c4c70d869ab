import { describe, expect, it } from 'vitest';
import type { DisplayMessage } from '../../lib/crypto.ts';
import {
  catchUpAfter,
  chatTitle,
  isSeenByOthers,
  matchesChatFilter,
  mergeMessages,
  replyPreview,
} from './messages.model.ts';

const message = (
  id: string,
  seq: number,
  seenBy: Record<string, true> = {},
  senderId = 'u1',
): DisplayMessage => ({
  _id: id,
  chat: 'c1',
  sender: { _id: senderId },
  content: 'x',
  iv: 'y',
  encryptedKeys: {},
  replyTo: null,
  seenBy,
  createdAt: '2025-01-01T00:00:00.000Z',
  seq,
  decryptedContent: `text ${id}`,
  readState: 'read',
  reactionTexts: {},
});

describe('mergeMessages', () => {
  it('drops a second copy of a message and keeps both copies read receipts', () => {
    const merged = mergeMessages(
      [message('a', 1, { u2: true })],
      [message('a', 1, { u3: true }), message('b', 2)],
    );
    expect(merged.map((m) => m._id)).toEqual(['a', 'b']);
    expect(merged[0]!.seenBy).toEqual({ u2: true, u3: true });
  });

  it('orders by seq whatever order the messages arrive in', () => {
    const merged = mergeMessages([message('c', 7)], [message('b', 5), message('d', 9), message('a', 2)]);
    expect(merged.map((m) => m.seq)).toEqual([2, 5, 7, 9]);
  });
});

describe('isSeenByOthers', () => {
  it('needs every other member, and at least one', () => {
    expect(isSeenByOthers({ seenBy: { u2: true } }, ['u2'])).toBe(true);
    expect(isSeenByOthers({ seenBy: { u2: true } }, ['u2', 'u3'])).toBe(false);
    expect(isSeenByOthers({ seenBy: {} }, [])).toBe(false);
  });
});

describe('chat helpers', () => {
  const chat = {
    isGroupChat: false,
    chatName: 'ignored',
    participants: [
      { _id: 'u2', username: 'Alice', profilePicture: null },
      { _id: 'u1', username: 'bob', profilePicture: null },
    ],
  };

  it('names one-to-one chats after the other person and groups by their name', () => {
    expect(chatTitle(chat)).toBe('Alice');
    expect(chatTitle({ ...chat, isGroupChat: true, chatName: 'Team' })).toBe('Team');
  });

  it('filters by participant username, case-insensitive substring', () => {
    expect(matchesChatFilter(chat, 'LIC')).toBe(true);
    expect(matchesChatFilter(chat, 'carol')).toBe(false);
    expect(matchesChatFilter(chat, '  ')).toBe(true);
  });

  it('previews replies with the first 30 characters', () => {
    expect(replyPreview('x'.repeat(40))).toHaveLength(30);
  });
});

describe('catchUpAfter', () => {
  it("starts after the newest message from someone else, not after one's own later sends", () => {
    // u2 sent seq 5 while this tab (u1) was offline; u1's own send (seq 7) is in the window already.
    const window = [message('a', 3, {}, 'u2'), message('b', 4, {}, 'u1'), message('c', 7, {}, 'u1')];
    expect(catchUpAfter(window, 'u1')).toBe(3);
  });

  it('re-reads from the oldest own message when no one else wrote, and from the start when empty', () => {
    expect(catchUpAfter([message('a', 10, {}, 'u1'), message('b', 12, {}, 'u1')], 'u1')).toBe(9);
    expect(catchUpAfter([], 'u1')).toBe(0);
  });
});
