import { createHmac } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { DomainError, retryAfterSeconds, type CallIceConfig } from '@veil/contracts';
import type { Logger, RateLimit } from '@veil/ports';
import { currentUserId } from '../../middleware/auth.ts';
import { respond } from './respond.ts';

/** The TURN servers calls may use (docs/calls.md, "Network traversal"). */
export interface TurnSettings {
  /** `stun:`, `turn:` and `turns:` URLs; the `turn(s):` ones take the credentials below. */
  urls: string[];
  /** The secret shared with coturn (`static-auth-secret`); absent: STUN only. */
  secret?: string;
  /** How long handed-out credentials hold. */
  ttlSeconds: number;
  /** Every call through the relay: the two sides never learn each other's address. */
  relayOnly: boolean;
}

/** Credentials for one user a minute: a page asks once per call. */
export const turnCredentialBudget = { name: 'turn-credentials-user', points: 30, windowSeconds: 60 } as const;

/**
 * The TURN REST scheme (coturn's `use-auth-secret`): the username is `<expiry>:<userId>`, the
 * password the base64 HMAC-SHA1 of the username under the shared secret. The TURN server checks
 * both without asking Veil; the credentials stop working at the expiry.
 */
export const turnCredentials = (userId: string, secret: string, nowMs: number, ttlSeconds: number) => {
  const username = `${Math.floor(nowMs / 1000) + ttlSeconds}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
};

export const iceConfigFor = (
  userId: string,
  turn: TurnSettings | undefined,
  nowMs: number,
): CallIceConfig => {
  if (!turn?.urls.length) return { iceServers: [], iceTransportPolicy: 'all', ttlSeconds: 0 };
  const stun = turn.urls.filter((url) => url.startsWith('stun:'));
  const relays = turn.urls.filter((url) => !url.startsWith('stun:'));
  const iceServers: CallIceConfig['iceServers'] = stun.length ? [{ urls: stun }] : [];
  if (relays.length && turn.secret)
    iceServers.push({ urls: relays, ...turnCredentials(userId, turn.secret, nowMs, turn.ttlSeconds) });
  return {
    iceServers,
    iceTransportPolicy: turn.relayOnly && relays.length && turn.secret ? 'relay' : 'all',
    ttlSeconds: turn.ttlSeconds,
  };
};

const spend =
  (budget: RateLimit, log: Logger): RequestHandler =>
  async (_req, res, next) => {
    let state;
    try {
      state = await budget.consume(currentUserId(res));
    } catch (err) {
      log.warn({ err }, 'TURN credential budget unavailable; letting the request through');
      return next();
    }
    if (state.allowed) return next();
    const seconds = retryAfterSeconds(state.retryAfterMs);
    res.set('Retry-After', String(seconds));
    next(new DomainError('RATE_LIMITED', `Too many requests. Try again in ${seconds} second(s).`));
  };

/** `/api/v1/calls/*`: what browsers need to set up a call beside its signalling (which is on the socket). */
export const callRoutes = (deps: {
  turn: TurnSettings | undefined;
  budget: RateLimit;
  now: () => number;
  log: Logger;
}): Router => {
  const router = Router();
  router.get('/turn', spend(deps.budget, deps.log), (_req, res) => {
    respond(res, 200, 'ICE servers', iceConfigFor(currentUserId(res), deps.turn, deps.now()));
  });
  return router;
};
