import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimits } from '@veil/ports';
import { limitersByName } from './rate-limit.ts';

/**
 * Counters in Redis, shared by every replica (each consume is one atomic Lua call). Keys are
 * `<prefix>:rl:<budget>:<key>` and expire with their window.
 */
export const createRedisRateLimits = (options: { url: string; prefix: string }): RateLimits => {
  const redis = new Redis(options.url, { enableOfflineQueue: true, maxRetriesPerRequest: 2 });
  return {
    limit: limitersByName(
      ({ name, points, windowSeconds }) =>
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${options.prefix}:rl:${name}`,
          points,
          duration: windowSeconds,
        }),
    ),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
};
