import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, loadLanguage, i18nReady } from '../../lib/i18n.ts';
import { isExpired, timerChoices, untilNextExpiry } from './disappearing.ts';

// The texts are a chunk of their own, as in the browser.
beforeAll(() => i18nReady);

describe('disappearing messages in the browser', () => {
  it('offers exactly the timers the server accepts, named as people say them in their language', async () => {
    await i18n.changeLanguage('en');
    expect(timerChoices()).toEqual([
      { seconds: 0, label: 'Off' },
      { seconds: 300, label: '5 minutes' },
      { seconds: 3600, label: '1 hour' },
      { seconds: 86_400, label: '1 day' },
      { seconds: 604_800, label: '1 week' },
    ]);
    await loadLanguage('de');
    await i18n.changeLanguage('de');
    expect(timerChoices().map((choice) => choice.label)).toEqual([
      'Aus',
      '5 Minuten',
      '1 Stunde',
      '1 Tag',
      '1 Woche',
    ]);
    await i18n.changeLanguage('en');
  });

  it('knows which messages have expired and when the next one does', () => {
    const now = Date.parse('2026-05-01T10:00:00.000Z');
    const messages = [
      { expiresAt: '2026-05-01T09:59:59.000Z' },
      {},
      { expiresAt: '2026-05-01T10:05:00.000Z' },
      { expiresAt: '2026-05-01T10:01:00.000Z' },
    ];
    expect(messages.map((m) => isExpired(m, now))).toEqual([true, false, false, false]);
    expect(untilNextExpiry(messages, now)).toBe(60_000);
    expect(untilNextExpiry([{}], now)).toBeUndefined();
  });
});
