import { useCallback, useEffect, useState } from 'react';
import { isApiError } from './api-error.ts';

/** The wait before each try: 1, 2, 4, 8, 16 s, then every 30 s. */
export const retryDelayMs = (attempt: number) => Math.min(30_000, 1000 * 2 ** attempt);

/**
 * Whether trying again can help: no answer at all, the server failing or busy. A refusal (not
 * found, not a member, bad input) stays one.
 */
export const isPassingFailure = (error: unknown): boolean =>
  isApiError(error) &&
  (error.kind === 'network' || (error.status ?? 0) >= 500 || error.status === 408 || error.status === 429);

/**
 * Tries a failed load again by itself, waiting longer each time, until it loads. Resolves when
 * the next try is (ms since the epoch; null when none is waiting), for the screen to say so, and
 * `retryNow` for a user who will not wait.
 */
export const useAutoRetry = ({
  failed,
  loaded,
  retry,
}: {
  /** The load failed in a way that may pass (and is not being tried right now). */
  failed: boolean;
  /** It loaded: the next failure starts again from the shortest wait. */
  loaded: boolean;
  retry: () => void;
}) => {
  const [attempt, setAttempt] = useState(0);
  const [nextAt, setNextAt] = useState<number | null>(null);
  useEffect(() => {
    if (loaded) setAttempt(0);
  }, [loaded]);
  useEffect(() => {
    if (!failed) return setNextAt(null);
    const delay = retryDelayMs(attempt);
    setNextAt(Date.now() + delay);
    const timer = setTimeout(() => {
      setAttempt((tried) => tried + 1);
      retry();
    }, delay);
    return () => clearTimeout(timer);
  }, [failed, attempt, retry]);
  const retryNow = useCallback(() => {
    setAttempt((tried) => tried + 1);
    retry();
  }, [retry]);
  return { nextAt, retryNow };
};
