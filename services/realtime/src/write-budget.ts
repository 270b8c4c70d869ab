import { DomainError, retryAfterSeconds } from '@veil/contracts';
import type { Logger, RateLimit } from '@veil/ports';

/**
 * Spends one write of the user's budget, the one the HTTP write routes spend from (shared by
 * every replica through the RateLimits port). A spent budget refuses with RATE_LIMITED and the
 * message an HTTP 429 carries. Unreachable counters let the write through with a warning, as at
 * the HTTP gateway: an outage of the counters must not stop every change.
 */
export const spendWrite = async (budget: RateLimit, userId: string, log: Logger): Promise<void> => {
  let state;
  try {
    state = await budget.consume(userId);
  } catch (err) {
    log.warn({ err }, 'write budget unavailable; letting the write through');
    return;
  }
  if (state.allowed) return;
  const seconds = retryAfterSeconds(state.retryAfterMs);
  throw new DomainError('RATE_LIMITED', `Too many requests. Try again in ${seconds} second(s).`);
};
