import { disappearingTimers } from '@veil/contracts/limits';
import { i18n, t } from '../../lib/i18n.ts';

/** The largest whole unit of a timer, as Intl names units. */
const unitOf = (seconds: number): [number, string] => {
  for (const [size, unit] of [
    [604_800, 'week'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ] as const)
    if (seconds % size === 0) return [seconds / size, unit];
  return [seconds, 'second'];
};

/** What the menu and the system lines call a timer ("1 hour", "5 Minuten", "يوم واحد"), through Intl. */
export const timerLabel = (seconds: number): string => {
  if (seconds === 0) return t('disappearing.off');
  const [value, unit] = unitOf(seconds);
  return new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'unit', unit, unitDisplay: 'long' }).format(
    value,
  );
};

/** The timers a chat may have, with their names in the app's language now. */
export const timerChoices = (): readonly { seconds: number; label: string }[] =>
  disappearingTimers.map((seconds) => ({ seconds, label: timerLabel(seconds) }));

/** Whether a message's timer has run out (the server removes it too, and tells every member). */
export const isExpired = (message: { expiresAt?: string }, now: number): boolean =>
  message.expiresAt !== undefined && Date.parse(message.expiresAt) <= now;

/** Milliseconds until the first of these messages expires; undefined when none will. */
export const untilNextExpiry = (
  messages: readonly { expiresAt?: string }[],
  now: number,
): number | undefined => {
  let next: number | undefined;
  for (const { expiresAt } of messages) {
    if (expiresAt === undefined) continue;
    const at = Date.parse(expiresAt);
    if (at > now && (next === undefined || at < next)) next = at;
  }
  return next === undefined ? undefined : next - now;
};
