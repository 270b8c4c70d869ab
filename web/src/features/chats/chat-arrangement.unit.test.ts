import { describe, expect, it } from 'vitest';
import type { ChatView } from '@veil/contracts';
import { arrangeChats } from './chat-arrangement.ts';

const chat = (id: string, extra: Partial<ChatView> = {}): ChatView => ({
  _id: id,
  isGroupChat: false,
  chatName: id,
  participants: [],
  createdBy: 'me',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const ids = (chats: ChatView[]) => chats.map((c) => c._id);

describe('arranging the chat list', () => {
  const chats = [
    chat('newest'),
    chat('archived', { archived: true, archivedAt: 'x' }),
    chat('pinned', { pinnedAt: 'y' }),
    chat('back', { archived: false, archivedAt: 'x' }),
    chat('oldest-pinned', { pinnedAt: 'z' }),
  ];

  it('puts pinned chats on top and leaves archived ones out, counting them', () => {
    const { rows, archivedCount } = arrangeChats(chats, new Set(), false);
    expect(ids(rows)).toEqual(['pinned', 'oldest-pinned', 'newest', 'back']);
    expect(archivedCount).toBe(1);
  });

  it('keeps a muted archived chat archived when a message arrived', () => {
    const { rows, archivedCount } = arrangeChats(chats, new Set(['back']), false);
    expect(ids(rows)).not.toContain('back');
    expect(archivedCount).toBe(2);
    expect(ids(arrangeChats(chats, new Set(['back']), true).rows)).toEqual(['archived', 'back']);
  });
});
