import { t } from '../../lib/i18n.ts';
import { formatter, nearDayWord } from './chat-summary.model.ts';

/**
 * A contact's last-seen time as the chat header says it: "last seen today at 14:02", "last seen
 * yesterday at 09:10", "last seen 3 Mar at 10:00" (the year too when it is another one), in the
 * reader's language and their locale's way of writing dates and times.
 */
export const lastSeenText = (iso: string, now: Date = new Date(), locale?: string): string => {
  const at = new Date(iso);
  const time = formatter(locale, { hour: '2-digit', minute: '2-digit' }).format(at);
  const day = nearDayWord(at, now, locale);
  if (day) return t('chats.lastSeenDay', { day, time });
  const date = formatter(locale, {
    day: 'numeric',
    month: 'short',
    ...(at.getFullYear() !== now.getFullYear() && { year: 'numeric' }),
  }).format(at);
  return t('chats.lastSeenDate', { date, time });
};
