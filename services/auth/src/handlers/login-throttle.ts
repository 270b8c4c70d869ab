import { DomainError } from '@veil/contracts';
import type { RateLimit, RateLimits } from '@veil/ports';

/**
 * Login throttling that slows guessing without letting anyone lock a user out.
 *
 * - Failed attempts are counted per (username, client IP), in growing windows: 5 a minute, 10 a
 *   quarter hour, 20 an hour. A guesser waits longer and longer; the account's owner, from any
 *   other address, is not affected, and from the same address gets in once the window passes.
 * - All attempts are counted per client IP (default 100 per 15 minutes, `LOGIN_ATTEMPTS_PER_IP`):
 *   enough for an office behind one NAT, a cap on spraying many accounts from one host.
 * - A success wipes that pair's failures.
 * Counters are shared by every replica (the RateLimits port: Redis in cluster mode).
 */
const failureTiers = [
  { name: 'login-failures-1m', points: 5, windowSeconds: 60 },
  { name: 'login-failures-15m', points: 10, windowSeconds: 15 * 60 },
  { name: 'login-failures-1h', points: 20, windowSeconds: 60 * 60 },
];

const waitText = (ms: number) => {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 60 ? `${seconds} second(s)` : `${Math.ceil(seconds / 60)} minute(s)`;
};

const tooMany = (retryAfterMs: number) =>
  new DomainError('RATE_LIMITED', `Too many login attempts. Try again in ${waitText(retryAfterMs)}.`);

export interface LoginThrottle {
  /** Throws RATE_LIMITED when this address may not try this username (or anything) now. */
  check(username: string, ip: string): Promise<void>;
  recordFailure(username: string, ip: string): Promise<void>;
  recordSuccess(username: string, ip: string): Promise<void>;
}

export const loginThrottle = (limits: RateLimits, attemptsPerIp: number): LoginThrottle => {
  const tiers: { limit: RateLimit; points: number }[] = failureTiers.map((spec) => ({
    limit: limits.limit(spec),
    points: spec.points,
  }));
  const perIp = limits.limit({ name: 'login-attempts-ip', points: attemptsPerIp, windowSeconds: 15 * 60 });
  const pair = (username: string, ip: string) => JSON.stringify([username.trim().toLowerCase(), ip]);

  return {
    async check(username, ip) {
      // Without its counters the throttle cannot tell a guesser from the owner: it fails closed.
      const counted = <T>(work: Promise<T>) =>
        work.catch(() => {
          throw new DomainError('UNAVAILABLE', 'Signing in is unavailable right now; try again shortly');
        });
      const states = await counted(Promise.all(tiers.map(({ limit }) => limit.peek(pair(username, ip)))));
      const spent = states
        .filter((state, i) => state.consumed >= tiers[i]!.points)
        .map((state) => state.retryAfterMs);
      if (spent.length) throw tooMany(Math.max(...spent));
      const attempt = await counted(perIp.consume(ip));
      if (!attempt.allowed) throw tooMany(attempt.retryAfterMs);
    },
    async recordFailure(username, ip) {
      await Promise.all(tiers.map(({ limit }) => limit.consume(pair(username, ip))));
    },
    async recordSuccess(username, ip) {
      await Promise.all(tiers.map(({ limit }) => limit.reset(pair(username, ip))));
    },
  };
};
