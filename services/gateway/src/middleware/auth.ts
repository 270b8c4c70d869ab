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
      res.locals.userId = (await verify(match[1]!)).userId;
      next();
    } catch (error) {
      next(error);
    }
  };

export const currentUserId = (res: { locals: Record<string, unknown> }): string =>
  res.locals.userId as string;
