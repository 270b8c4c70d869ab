import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, i18nReady, loadLanguage } from '../../lib/i18n.ts';
import { lastSeenText } from './last-seen.model.ts';

// The texts are a chunk of their own, as in the browser.
beforeAll(() => i18nReady);

describe("a contact's last-seen time", () => {
  const now = new Date(2026, 10, 24, 15, 0);
  const at = (...parts: [number, number, number, number, number]) => new Date(...parts).toISOString();

  it('says today, yesterday, or the date, with the time, as the locale writes them', () => {
    expect(lastSeenText(at(2026, 10, 24, 14, 2), now, 'en-GB')).toBe('last seen today at 14:02');
    expect(lastSeenText(at(2026, 10, 23, 9, 10), now, 'en-GB')).toBe('last seen yesterday at 09:10');
    expect(lastSeenText(at(2026, 2, 3, 10, 0), now, 'en-GB')).toBe('last seen 3 Mar at 10:00');
    expect(lastSeenText(at(2025, 2, 3, 10, 0), now, 'en-GB')).toBe('last seen 3 Mar 2025 at 10:00');
    // The locale's clock: twelve hours in the US.
    expect(lastSeenText(at(2026, 10, 24, 14, 2), now, 'en-US')).toBe('last seen today at 02:02 PM');
  });

  it('reads in German and Arabic', async () => {
    await loadLanguage('de');
    await loadLanguage('ar');
    await i18n.changeLanguage('de');
    try {
      expect(lastSeenText(at(2026, 10, 23, 9, 10), now, 'de')).toBe('zuletzt online gestern um 09:10');
      expect(lastSeenText(at(2026, 2, 3, 10, 0), now, 'de')).toBe('zuletzt online am 3. März um 10:00');
      await i18n.changeLanguage('ar');
      expect(lastSeenText(at(2026, 10, 24, 14, 2), now, 'ar')).toContain('آخر ظهور اليوم');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
