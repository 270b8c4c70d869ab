import { sentenceText } from '../../lib/bidi.ts';
import { i18nReady } from '../../lib/i18n.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  badgeText,
  dayLabel,
  firstUnreadId,
  listTime,
  previewLine,
  startsDay,
} from './chat-summary.model.ts';

const from = (sender: string, _id: string) => ({ _id, sender: { _id: sender } });

// The texts are a chunk of their own, as in the browser.
beforeAll(() => i18nReady);

describe('chat list summary', () => {
  it('shows counts up to 99, then 99+', () => {
    expect(badgeText(7)).toBe('7');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('shows the time today, the weekday this week and the date before', () => {
    const now = new Date(2026, 10, 24, 15, 0);
    expect(listTime(new Date(2026, 10, 24, 9, 5).toISOString(), now, 'en-GB')).toBe('09:05');
    expect(listTime(new Date(2026, 10, 21, 9, 5).toISOString(), now, 'en-GB')).toBe('Sat');
    // Yesterday reads as the day heading says it, in the list too.
    const yesterday = new Date(2026, 10, 23, 22, 0).toISOString();
    expect(listTime(yesterday, now, 'en-GB')).toBe('Yesterday');
    expect(listTime(yesterday, now, 'de')).toBe(dayLabel(yesterday, now, 'de'));
    expect(listTime(new Date(2026, 9, 2, 9, 5).toISOString(), now, 'en-GB')).toBe('2 Oct 26');
  });

  it('names days in the history', () => {
    const now = new Date(2026, 10, 24, 0, 30);
    expect(dayLabel(new Date(2026, 10, 24, 0, 1).toISOString(), now, 'en-GB')).toBe('Today');
    expect(dayLabel(new Date(2026, 10, 23, 23, 59).toISOString(), now, 'en-GB')).toBe('Yesterday');
    expect(dayLabel(new Date(2025, 0, 5).toISOString(), now, 'en-GB')).toBe('Sunday, 5 January 2025');
    const morning = { createdAt: new Date(2026, 10, 24, 8).toISOString() };
    expect(startsDay(morning)).toBe(true);
    expect(startsDay(morning, { createdAt: new Date(2026, 10, 24, 7).toISOString() })).toBe(false);
    expect(startsDay(morning, { createdAt: new Date(2026, 10, 23, 23).toISOString() })).toBe(true);
  });

  it('previews the first line, with its author when given', () => {
    expect(sentenceText(previewLine('  hello\nsecond line', 'You'))).toBe('You: hello');
    expect(previewLine('  hello\nsecond line', 'You')).toEqual([{ value: 'You' }, ': ', { value: 'hello' }]);
    expect(previewLine('hi', null)).toEqual([{ value: 'hi' }]);
  });

  it("puts the divider before the oldest unread message from others, skipping one's own", () => {
    const messages = [from('b', 'm1'), from('b', 'm2'), from('me', 'm3'), from('b', 'm4')];
    expect(firstUnreadId(messages, 'me', 2)).toBe('m2');
    expect(firstUnreadId(messages, 'me', 1)).toBe('m4');
    expect(firstUnreadId(messages, 'me', 0)).toBeUndefined();
    expect(firstUnreadId(messages, 'me', 9)).toBeUndefined();
  });
});
