import { Router, type RequestHandler } from 'express';
import {
  addSigningKeyBodySchema,
  attestKeysBodySchema,
  idSchema,
  parseKeyBackup,
  parseWith,
  resetKeysBodySchema,
} from '@veil/contracts';
import { currentUserId } from '../../middleware/auth.ts';
import type { WriteLimits } from '../../middleware/write-limits.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

/**
 * `GET /api/v1/users/:userId/keyLog` (mounted behind authentication): any signed-in user may
 * read any user's key-change log, as anyone signed in may start a chat with anyone.
 */
export const keyLogRoutes = ({ services }: { services: ServiceClients }): Router => {
  const router = Router();
  router.get('/:userId/keyLog', async (req, res) => {
    const userId = parseWith(idSchema, req.params.userId);
    respond(res, 200, 'Key log fetched', await services.user.keyLog({ userId }));
  });
  return router;
};

/**
 * `/api/v1/user/signingKey`, `/api/v1/user/attestKeys` and `/api/v1/user/resetKeys`: changes to
 * the caller's own published keys, each an entry of its key-change log that the caller's browser
 * signed. The account is the verified token's.
 */
export const keyChangeRoutes = ({
  services,
  requireAuth,
  writes,
}: {
  services: ServiceClients;
  requireAuth: RequestHandler;
  writes: WriteLimits;
}): Router => {
  const router = Router();

  router.post('/signingKey', requireAuth, writes.byUser, async (req, res) => {
    const { entry } = parseWith(addSigningKeyBodySchema, req.body);
    const status = await services.user.addSigningKey({ userId: currentUserId(res), entry });
    respond(res, 201, 'Signing key published', status);
  });

  router.post('/attestKeys', requireAuth, writes.byUser, async (req, res) => {
    const { entry } = parseWith(attestKeysBodySchema, req.body);
    const status = await services.user.attestKeys({ userId: currentUserId(res), entry });
    respond(res, 201, 'Keys attested', status);
  });

  router.post('/resetKeys', requireAuth, writes.byUser, async (req, res) => {
    const body = parseWith(resetKeysBodySchema, req.body);
    const status = await services.user.resetKeys({
      userId: currentUserId(res),
      entry: body.entry,
      ...(body.backup === undefined ? {} : { keyBackup: parseKeyBackup(body.backup) }),
    });
    respond(res, 201, 'Keys reset', status);
  });

  return router;
};
