import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { DomainError } from '@veil/contracts';

/**
 * Rate-limit budgets for a service (rate-limiter-flexible). Counted in Redis when a URL is given,
 * so every replica of the service spends the same budget, and in this process's memory
 * otherwise (the embedded app, one process).
 */
export interface Budgets {
  /** `points` per key per `durationSeconds`, kept under `<keyPrefix>:<name>`. */
  budget(name: string, points: number, durationSeconds: number): RateLimiterAbstract;
  close(): Promise<void>;
}

export const createBudgets = (options: { redisUrl?: string; keyPrefix: string }): Budgets => {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: true, lazyConnect: false })
    : null;
  return {
    budget: (name, points, duration) => {
      const keyPrefix = `${options.keyPrefix}:${name}`;
      return redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    },
    async close() {
      redis?.disconnect();
    },
  };
};

/**
 * What a spent budget becomes for callers: RATE_LIMITED, its text naming the whole minutes to
 * wait. Anything else (Redis down) is thrown as it is.
 */
export const rateLimited = (res: unknown, text: (minutes: number) => string): never => {
  if (res instanceof RateLimiterRes) {
    const minutes = Math.max(1, Math.ceil(res.msBeforeNext / 60_000));
    throw new DomainError('RATE_LIMITED', text(minutes));
  }
  throw res;
};
