import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupNotice } from '@veil/contracts';
import type { DisplayMessage } from '../messages/index.ts';
import { i18n, loadLanguage, i18nReady } from '../../lib/i18n.ts';
import { noticeParts, noticeText, timelineOf } from './group-notices.ts';

const alice = { _id: 'a', username: 'alice', profilePicture: null };
const dave = { _id: 'd', username: 'dave', profilePicture: null };
const notice = (kind: GroupNotice['kind'], at: string, extra: Partial<GroupNotice> = {}): GroupNotice => ({
  kind,
  by: alice,
  members: [dave],
  at,
  ...extra,
});
const message = (id: string, createdAt: string) => ({ _id: id, createdAt }) as DisplayMessage;

// The texts are a chunk of their own, as in the browser.
beforeAll(() => i18nReady);

describe('group system lines', () => {
  it('say who did what, with "you" for the reader', () => {
    expect(noticeText(notice('added', 't'), 'x')).toBe('alice added dave');
    expect(noticeText(notice('removed', 't'), 'd')).toBe('alice removed you');
    expect(noticeText(notice('left', 't', { members: [alice] }), 'a')).toBe('You left');
    expect(noticeText(notice('promoted', 't'), 'x')).toBe('alice made dave an admin');
    expect(noticeText(notice('renamed', 't', { name: 'Crew' }), 'x')).toBe(
      'alice renamed the group to “Crew”',
    );
    expect(noticeText(notice('timer', 't', { members: [], seconds: 3600 }), 'x')).toBe(
      'alice set disappearing messages to 1 hour',
    );
    expect(noticeText(notice('timer', 't', { members: [], seconds: 0 }), 'a')).toBe(
      'You turned off disappearing messages',
    );
  });

  it('pick the sentence by who "you" are, and keep names apart for direction isolation', async () => {
    expect(noticeText(notice('added', 't'), 'a')).toBe('You added dave');
    expect(noticeText(notice('promoted', 't'), 'd')).toBe('alice made you an admin');
    expect(noticeText(notice('added', 't', { members: [dave, alice] }), 'd')).toBe('alice added you, alice');
    expect(noticeParts(notice('removed', 't'), 'x')).toEqual([
      { value: 'alice' },
      ' removed ',
      { value: 'dave' },
    ]);
    await loadLanguage('de');
    await loadLanguage('ar');
    await i18n.changeLanguage('de');
    try {
      expect(noticeText(notice('removed', 't'), 'd')).toBe('alice hat dich entfernt');
      expect(noticeText(notice('removed', 't'), 'a')).toBe('Du hast dave entfernt');
      expect(noticeText(notice('removed', 't'), 'x')).toBe('alice hat dave entfernt');
      await i18n.changeLanguage('ar');
      expect(noticeText(notice('removed', 't'), 'd')).toBe('أزالك alice');
      expect(noticeText(notice('added', 't'), 'a')).toBe('أضفت dave');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('sit among the messages by time, and wait with older messages not loaded yet', () => {
    const messages = [message('m1', '2026-01-01T10:00:00Z'), message('m2', '2026-01-01T12:00:00Z')];
    const notices = [notice('created', '2026-01-01T09:00:00Z'), notice('added', '2026-01-01T11:00:00Z')];
    const order = (hasMore: boolean) =>
      timelineOf(messages, notices, hasMore).map((i) =>
        i.kind === 'message' ? i.message._id : i.notice.kind,
      );
    expect(order(false)).toEqual(['created', 'm1', 'added', 'm2']);
    expect(order(true)).toEqual(['m1', 'added', 'm2']);
  });
});
