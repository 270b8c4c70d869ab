import { disappearingTimers } from '@veil/contracts';

/** What the menu and the system lines call a timer. */
export const timerLabel = (seconds: number): string => {
  switch (seconds) {
    case 0:
      return 'Off';
    case 300:
      return '5 minutes';
    case 3600:
      return '1 hour';
    case 86_400:
      return '1 day';
    case 604_800:
      return '1 week';
    default:
      return `${seconds} seconds`;
  }
};

/** The timers a chat may have, with their names. */
export const timerChoices: readonly { seconds: number; label: string }[] = disappearingTimers.map(
  (seconds) => ({ seconds, label: timerLabel(seconds) }),
);

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
