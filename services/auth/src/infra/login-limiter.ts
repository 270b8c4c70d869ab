import { createBudgets, rateLimited } from '@veil/throttle';

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
  const budgets = createBudgets({
    keyPrefix: options.keyPrefix ?? 'veil:login',
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
  });
  const byUsername = budgets.budget('user', failuresPerUsername, WINDOW_SECONDS);
  const byIp = budgets.budget('ip', options.attemptsPerIp, WINDOW_SECONDS);

  const limited = (res: unknown): never =>
    rateLimited(res, (minutes) => `Too many login attempts. Try again in ${minutes} minute(s).`);

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
    close: () => budgets.close(),
  };
};
