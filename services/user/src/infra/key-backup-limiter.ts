import { createBudgets, rateLimited } from '@veil/throttle';

/**
 * Per-account budgets for the encrypted key backup. Downloads are few: a browser needs the blob
 * once per restore, and someone holding a stolen session gets no more than a handful of copies to
 * try offline. Writes are capped so no account can flood its stream. Shared by every user-service
 * replica through Redis in cluster mode (`@veil/throttle`).
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
  const budgets = createBudgets({
    keyPrefix: options.keyPrefix ?? 'veil:keybackup',
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
  });
  const spend = (points: number, what: string) => {
    const budget = budgets.budget(what, points, WINDOW_SECONDS);
    return async (userId: string) => {
      await budget
        .consume(userId)
        .catch((res: unknown) =>
          rateLimited(res, (minutes) => `Too many key backup ${what}. Try again in ${minutes} minute(s).`),
        );
    };
  };
  return {
    download: spend(keyBackupDownloadsPerHour, 'downloads'),
    write: spend(keyBackupWritesPerHour, 'changes'),
    close: () => budgets.close(),
  };
};
