import { useEffect, useMemo, useState } from 'react';
import { isExpired, untilNextExpiry } from '../disappearing.ts';
import { forgetPreview } from '../../messages/index.ts';

/** setTimeout's ceiling (about 24.8 days); a longer wait is taken in steps. */
const maxTimeoutMs = 2 ** 31 - 1;

/**
 * The messages whose disappearing timer has not run out, re-checked the moment the next one
 * does: a message leaves the screen on time even while the socket is down (the server removes
 * it and tells every member too), and its preview text is forgotten with it.
 */
export const useUnexpired = <M extends { _id: string; expiresAt?: string }>(messages: M[]): M[] => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const wait = untilNextExpiry(messages, now);
    if (wait === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(wait + 50, maxTimeoutMs));
    return () => clearTimeout(timer);
  }, [messages, now]);
  return useMemo(() => {
    const expired = messages.filter((message) => isExpired(message, now));
    if (!expired.length) return messages;
    for (const message of expired) forgetPreview(message._id);
    return messages.filter((message) => !isExpired(message, now));
  }, [messages, now]);
};
