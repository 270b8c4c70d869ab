import { describe, expect, it } from 'vitest';
import type { DisplayMessage } from './display-message.ts';
import {
  catchUpAfter,
  chatTitle,
  isSeenByOthers,
  matchesChatFilter,
  mergeMessages,
  mergeReread,
  replyPreview,
  rereadOnReconnect,
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

  it("finds a group by its name, and a one-to-one chat never by the server's placeholder name", () => {
    const group = { ...chat, isGroupChat: true, chatName: 'Café Planning' };
    expect(matchesChatFilter(group, 'café')).toBe(true);
    expect(matchesChatFilter(group, 'cafe\u0301')).toBe(true);
    expect(matchesChatFilter(group, 'budget')).toBe(false);
    expect(matchesChatFilter({ ...chat, chatName: 'Café Planning' }, 'café')).toBe(false);
  });

  it('previews replies with the first 30 characters', () => {
    expect(replyPreview('x'.repeat(40))).toHaveLength(30);
  });
});

describe('catchUpAfter', () => {
  it('reads the loaded window again, and never starts after the newest message from someone else', () => {
    // u2 sent seq 5 while this tab (u1) was offline; u1's own send (seq 7) is in the window already.
    const window = [message('a', 3, {}, 'u2'), message('b', 4, {}, 'u1'), message('c', 7, {}, 'u1')];
    expect(catchUpAfter(window, 'u1')).toBe(2);
    expect(catchUpAfter([message('a', 10, {}, 'u1'), message('b', 12, {}, 'u1')], 'u1')).toBe(9);
    expect(catchUpAfter([], 'u1')).toBe(0);
  });

  it('reads again only the newest messages of a long window, unless someone else wrote before them', () => {
    const long = Array.from({ length: rereadOnReconnect + 50 }, (_, i) => message(`m${i}`, i + 1, {}, 'u2'));
    expect(catchUpAfter(long, 'u1')).toBe(50);
    const ownAtTheEnd = long.map((m) => (m.seq > 10 ? { ...m, sender: { _id: 'u1' } } : m));
    expect(catchUpAfter(ownAtTheEnd, 'u1')).toBe(10);
  });
});

describe('mergeReread', () => {
  const window = [message('a', 1), message('b', 2), message('c', 3), message('d', 4), message('e', 6)];

  it('takes the server copy of each message read again, and adds the new ones', () => {
    const page = [
      { ...message('b', 2), decryptedContent: 'edited' },
      message('c', 3),
      message('d', 4),
      message('f', 5),
    ];
    const merged = mergeReread(window, page, 1);
    expect(merged.map((m) => m._id)).toEqual(['a', 'b', 'c', 'd', 'f', 'e']);
    expect(merged[1]!.decryptedContent).toBe('edited');
  });

  it('drops what the page lacks in its range (deleted for me elsewhere), and nothing outside it', () => {
    // c was hidden on another device; e (seq 6) is newer than the page's newest: it may be live.
    const merged = mergeReread(window, [message('b', 2), message('d', 4)], 1);
    expect(merged.map((m) => m._id)).toEqual(['a', 'b', 'd', 'e']);
    expect(mergeReread(window, [], 1).map((m) => m._id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps a change told live after the server read the page: a tombstone, a later edit', () => {
    const live = [
      { ...message('a', 1), deleted: true as const, decryptedContent: '' },
      { ...message('b', 2), editedAt: '2025-01-01T00:02:00.000Z', decryptedContent: 'newest' },
      message('c', 3),
    ];
    const page = [
      message('a', 1),
      { ...message('b', 2), editedAt: '2025-01-01T00:01:00.000Z', decryptedContent: 'older' },
      { ...message('c', 3), editedAt: '2025-01-01T00:01:00.000Z', decryptedContent: 'edited meanwhile' },
    ];
    const merged = mergeReread(live, page, 0);
    expect(merged.map((m) => [m.deleted ?? false, m.decryptedContent])).toEqual([
      [true, ''],
      [false, 'newest'],
      [false, 'edited meanwhile'],
    ]);
  });
});
