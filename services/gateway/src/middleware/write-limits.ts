import type { Request, RequestHandler, Response } from 'express';
import { DomainError, limits as veilLimits, retryAfterSeconds, userWriteBudget } from '@veil/contracts';
import type { Logger, RateLimit, RateLimits } from '@veil/ports';
import { currentUserId } from './auth.ts';

export interface WriteBudgets {
  /** Writes one signed-in user may make per minute, over every write route together (and the socket's changes to messages). */
  perUserPerMinute: number;
  /** Writes without a user (register, login, refresh, logout) one client IP may make per minute. */
  perIpPerMinute: number;
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every write route spends from a budget shared by all gateway replicas (the RateLimits port):
 * per user once the token is verified, per client IP before. A spent budget answers 429 with
 * Retry-After. If the counters cannot be reached, the write goes through and a warning is
 * logged: a Redis outage must not stop every send (logins have their own throttle, which fails
 * closed).
 */
export const writeLimits = (limits: RateLimits, budgets: WriteBudgets, log: Logger) => {
  const guard =
    (limit: RateLimit, keyOf: (req: Request, res: Response) => string): RequestHandler =>
    async (req, res, next) => {
      if (safeMethods.has(req.method)) return next();
      let state;
      try {
        state = await limit.consume(keyOf(req, res));
      } catch (err) {
        log.warn({ err }, 'write budget unavailable; letting the write through');
        return next();
      }
      if (state.allowed) return next();
      const seconds = retryAfterSeconds(state.retryAfterMs);
      res.set('Retry-After', String(seconds));
      next(new DomainError('RATE_LIMITED', `Too many requests. Try again in ${seconds} second(s).`));
    };
  return {
    byUser: guard(limits.limit(userWriteBudget(budgets.perUserPerMinute)), (_req, res) => currentUserId(res)),
    /** Abuse reports: a budget of their own per user and hour, on top of the writes budget. */
    reports: guard(
      limits.limit({ name: 'reports-user', points: veilLimits.reportsPerUserPerHour, windowSeconds: 3600 }),
      (_req, res) => currentUserId(res),
    ),
    byIp: guard(
      limits.limit({ name: 'http-writes-ip', points: budgets.perIpPerMinute, windowSeconds: 60 }),
      (req) => req.ip ?? 'unknown',
    ),
  };
};

export type WriteLimits = ReturnType<typeof writeLimits>;
