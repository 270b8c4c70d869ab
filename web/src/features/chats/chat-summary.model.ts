import type { DisplayMessage } from '../messages/index.ts';
import { sentenceParts, type SentencePart } from '../../lib/bidi.ts';
import { t } from '../../lib/i18n.ts';

/** The badge on a chat: the count, "99+" past 99. */
export const badgeText = (count: number): string => (count > 99 ? '99+' : String(count));

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

/** Calendar days from `earlier` to `later` (0: the same day), by the reader's clock. */
export const daysBetween = (earlier: Date, later: Date) => {
  const start = new Date(earlier.getFullYear(), earlier.getMonth(), earlier.getDate());
  const end = new Date(later.getFullYear(), later.getMonth(), later.getDate());
  return Math.round((end.getTime() - start.getTime()) / 86_400_000);
};

/** Formatters are costly to make (a list shows hundreds of times): one per locale and style. */
const formatters = new Map<string, Intl.DateTimeFormat>();
export const formatter = (locale: string | undefined, options: Intl.DateTimeFormatOptions) => {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) formatters.set(key, (made = new Intl.DateTimeFormat(locale, options)));
  return made;
};

/**
 * "yesterday" (or "today") in the reader's language, as it reads inside a sentence, for a day
 * that is one; else undefined. The one source of the word for the list, the history's day
 * headings and a contact's last-seen time, so all always agree.
 */
export const nearDayWord = (at: Date, now: Date, locale?: string): string | undefined => {
  const days = daysBetween(at, now);
  if (days !== 0 && days !== 1) return undefined;
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-days, 'day');
};

/** The near-day word capitalised, as a heading or a list shows it alone. */
const nearDay = (at: Date, now: Date, locale?: string): string | undefined => {
  const word = nearDayWord(at, now, locale);
  return word && word.charAt(0).toLocaleUpperCase(locale) + word.slice(1);
};

/**
 * When a chat's newest message came, as a chat list shows it: the time today, "Yesterday" (as
 * the day heading says), the weekday this week, else the date.
 */
export const listTime = (iso: string, now: Date = new Date(), locale?: string): string => {
  const at = new Date(iso);
  if (sameDay(at, now)) return formatter(locale, { hour: '2-digit', minute: '2-digit' }).format(at);
  if (daysBetween(at, now) === 1) return nearDay(at, now, locale)!;
  if (daysBetween(at, now) < 7) return formatter(locale, { weekday: 'short' }).format(at);
  return formatter(locale, { day: 'numeric', month: 'short', year: '2-digit' }).format(at);
};

/** The heading of a day in a chat's history: Today, Yesterday, or the date. */
export const dayLabel = (iso: string, now: Date = new Date(), locale?: string): string => {
  const at = new Date(iso);
  const near = nearDay(at, now, locale);
  if (near) return near;
  return at.toLocaleDateString(locale, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(at.getFullYear() !== now.getFullYear() && { year: 'numeric' }),
  });
};

/** Whether a message starts a new day in the history (the first one always does). */
export const startsDay = (
  message: Pick<DisplayMessage, 'createdAt'>,
  previous?: Pick<DisplayMessage, 'createdAt'>,
) => !previous || !sameDay(new Date(previous.createdAt), new Date(message.createdAt));

/** One line of preview: the first line of the text, whose it is when that helps. */
export const previewLine = (text: string, author: string | null): SentencePart[] => {
  const line = text.split('\n', 1)[0]!.trim();
  // The author and the text each keep their own direction (`<bdi>`).
  return author
    ? sentenceParts((slot) => t('chats.previewBy', { author: slot(author), text: slot(line) }))
    : [{ value: line }];
};

/**
 * Where the "New messages" divider goes when a chat opens with `unread` messages: before the
 * oldest of the newest `unread` messages from others. Undefined when nothing is unread or the
 * first unread message is not loaded.
 */
export const firstUnreadId = (
  messages: readonly Pick<DisplayMessage, '_id' | 'sender'>[],
  myId: string,
  unread: number,
): string | undefined => {
  if (unread <= 0) return undefined;
  let counted = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.sender._id === myId) continue;
    counted += 1;
    if (counted === unread) return message._id;
  }
  return undefined;
};
