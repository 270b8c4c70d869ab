import { DomainError } from '@veil/contracts';
import type { RateLimit, RateLimits } from '@veil/ports';

/**
 * Per-account budgets for the encrypted key backup. Downloads are few: a browser needs the blob
 * once per restore, and someone holding a stolen session gets no more than a handful of copies to
 * try offline. Writes are capped so no account can flood its stream. Shared by every user-service
 * replica (the RateLimits port: Redis in cluster mode).
 */
export const keyBackupDownloadsPerHour = 6;
export const keyBackupWritesPerHour = 20;

export interface KeyBackupLimiter {
  /** Throws RATE_LIMITED once the account's downloads for the hour are spent. */
  download(userId: string): Promise<void>;
  /** Throws RATE_LIMITED once the account's writes for the hour are spent. */
  write(userId: string): Promise<void>;
}

/**
 * Key resets per account per day. A reset makes every older message unreadable on browsers
 * without the old key and warns every contact, so a stolen session may not repeat it at will.
 */
export const keyResetsPerDay = 3;

const spend = (limit: RateLimit, what: string) => async (userId: string) => {
  const state = await limit.consume(userId);
  if (state.allowed) return;
  const minutes = Math.max(1, Math.ceil(state.retryAfterMs / 60_000));
  throw new DomainError('RATE_LIMITED', `Too many ${what}. Try again in ${minutes} minute(s).`);
};

/** Throws RATE_LIMITED once the account's key resets for the day are spent. */
export const keyResetLimiter = (limits: RateLimits): ((userId: string) => Promise<void>) =>
  spend(
    limits.limit({ name: 'key-resets', points: keyResetsPerDay, windowSeconds: 24 * 60 * 60 }),
    'key resets',
  );

export const keyBackupLimiter = (limits: RateLimits): KeyBackupLimiter => {
  const hourly = (name: string, points: number) => limits.limit({ name, points, windowSeconds: 60 * 60 });
  return {
    download: spend(hourly('keybackup-downloads', keyBackupDownloadsPerHour), 'key backup downloads'),
    write: spend(hourly('keybackup-changes', keyBackupWritesPerHour), 'key backup changes'),
  };
};
