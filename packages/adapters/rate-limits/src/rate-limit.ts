import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimit, RateLimitSpec, RateLimitState } from '@veil/ports';

/**
 * The RateLimit port over one of rate-limiter-flexible's limiters (memory or Redis: one API).
 * A spent budget rejects with a RateLimiterRes; anything else it rejects with is a store failure
 * and is passed on.
 */
const rateLimitOver = (limiter: RateLimiterAbstract): RateLimit => {
  const stateOf = (res: RateLimiterRes): RateLimitState => ({
    consumed: res.consumedPoints,
    retryAfterMs: Math.max(0, res.msBeforeNext),
  });
  return {
    async consume(key, points = 1) {
      try {
        return { allowed: true, ...stateOf(await limiter.consume(key, points)) };
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return { allowed: false, ...stateOf(refusal) };
        throw refusal;
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      return res ? stateOf(res) : { consumed: 0, retryAfterMs: 0 };
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
};

/** One limiter per budget name, so every caller of a budget spends from the same counters. */
export const limitersByName = (make: (spec: RateLimitSpec) => RateLimiterAbstract) => {
  const limits = new Map<string, RateLimit>();
  return (spec: RateLimitSpec): RateLimit => {
    let limit = limits.get(spec.name);
    if (!limit) limits.set(spec.name, (limit = rateLimitOver(make(spec))));
    return limit;
  };
};
