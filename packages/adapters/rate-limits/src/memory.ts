import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateLimits } from '@veil/ports';
import { limitersByName } from './rate-limit.ts';

/** Counters in this process: the embedded app, where there is no other replica to share with. */
export const createMemoryRateLimits = (): RateLimits => ({
  limit: limitersByName(
    ({ name, points, windowSeconds }) =>
      new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds }),
  ),
  async close() {},
});
