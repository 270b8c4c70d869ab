import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { DomainError } from '@veil/contracts';

/**
 * Login throttling, per username (failed attempts: stops guessing one account) and per client
 * IP (all attempts: stops spraying many accounts). Counters live in Redis in cluster mode so
 * every auth replica shares them, and in memory in the embedded process.
 */
export interface LoginLimiter {
  /** Throws RATE_LIMITED when either budget is spent. */
  check(username: string, ip: string): Promise<void>;
  recordFailure(username: string): Promise<void>;
  recordSuccess(username: string): Promise<void>;
  close(): Promise<void>;
}

const WINDOW_SECONDS = 15 * 60;
export const failuresPerUsername = 10;

export const createLoginLimiter = (options: {
  redisUrl?: string;
  keyPrefix?: string;
  attemptsPerIp: number;
}): LoginLimiter => {
  const prefix = options.keyPrefix ?? 'veil:login';
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: true, lazyConnect: false })
    : null;
  const make = (keyPrefix: string, points: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: WINDOW_SECONDS })
      : new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
  const byUsername = make(`${prefix}:user`, failuresPerUsername);
  const byIp = make(`${prefix}:ip`, options.attemptsPerIp);

  const limited = (res: unknown): never => {
    if (res instanceof RateLimiterRes) {
      const minutes = Math.max(1, Math.ceil(res.msBeforeNext / 60_000));
      throw new DomainError('RATE_LIMITED', `Too many login attempts. Try again in ${minutes} minute(s).`);
    }
    throw res;
  };

  return {
    async check(username, ip) {
      const key = username.toLowerCase();
      const userState = await byUsername.get(key);
      if (userState && userState.consumedPoints >= failuresPerUsername) limited(userState);
      await byIp.consume(ip).catch(limited);
    },
    async recordFailure(username) {
      await byUsername.consume(username.toLowerCase()).catch(() => undefined);
    },
    async recordSuccess(username) {
      await byUsername.delete(username.toLowerCase());
    },
    async close() {
      redis?.disconnect();
    },
  };
};
