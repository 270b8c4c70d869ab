import type { RequestHandler } from 'express';
import { DomainError } from '@veil/contracts';
import type { AccessTokenVerifier } from '@veil/tokens';

/** Identity comes from the verified bearer token only; routes read it from `res.locals.userId`. */
export const requireAuth =
  (verify: AccessTokenVerifier): RequestHandler =>
  async (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) return next(new DomainError('UNAUTHENTICATED', 'Authentication required'));
    try {
      const claims = await verify(match[1]!);
      res.locals.userId = claims.userId;
      res.locals.sessionId = claims.sessionId;
      next();
    } catch (error) {
      next(error);
    }
  };

export const currentUserId = (res: { locals: Record<string, unknown> }): string =>
  res.locals.userId as string;

/** The session (refresh-token family) the token was minted for; absent on older tokens. */
export const currentSessionId = (res: { locals: Record<string, unknown> }): string | undefined =>
  res.locals.sessionId as string | undefined;
