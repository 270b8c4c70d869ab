import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { DomainError } from '@veil/contracts';

/**
 * Per-account budgets for the encrypted key backup. Downloads are few: a browser needs the blob
 * once per restore, and someone holding a stolen session gets no more than a handful of copies to
 * try offline. Writes are capped so no account can flood its stream. Counters live in Redis in
 * cluster mode, so every user-service replica shares them, and in memory in the embedded process.
 */
export const keyBackupDownloadsPerHour = 6;
export const keyBackupWritesPerHour = 20;
const WINDOW_SECONDS = 60 * 60;

export interface KeyBackupLimiter {
  /** Throws RATE_LIMITED once the account's downloads for the hour are spent. */
  download(userId: string): Promise<void>;
  /** Throws RATE_LIMITED once the account's writes for the hour are spent. */
  write(userId: string): Promise<void>;
  close(): Promise<void>;
}

export const createKeyBackupLimiter = (options: {
  redisUrl?: string;
  keyPrefix?: string;
}): KeyBackupLimiter => {
  const prefix = options.keyPrefix ?? 'veil:keybackup';
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: true, lazyConnect: false })
    : null;
  const make = (keyPrefix: string, points: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: WINDOW_SECONDS })
      : new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
  const downloads = make(`${prefix}:download`, keyBackupDownloadsPerHour);
  const writes = make(`${prefix}:write`, keyBackupWritesPerHour);

  const spend = (limiter: RateLimiterAbstract, what: string) => async (userId: string) => {
    await limiter.consume(userId).catch((res: unknown) => {
      if (!(res instanceof RateLimiterRes)) throw res;
      const minutes = Math.max(1, Math.ceil(res.msBeforeNext / 60_000));
      throw new DomainError(
        'RATE_LIMITED',
        `Too many key backup ${what}. Try again in ${minutes} minute(s).`,
      );
    });
  };

  return {
    download: spend(downloads, 'downloads'),
    write: spend(writes, 'changes'),
    async close() {
      redis?.disconnect();
    },
  };
};
