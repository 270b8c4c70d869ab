import { Router, type RequestHandler } from 'express';
import {
  parseAccountState,
  parseKeyBackup,
  parseWith,
  storeAccountStateBodySchema,
  storeKeyBackupBodySchema,
} from '@veil/contracts';
import { currentUserId } from '../../middleware/auth.ts';
import type { WriteLimits } from '../../middleware/write-limits.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

interface Deps {
  services: ServiceClients;
  requireAuth: RequestHandler;
  writes: WriteLimits;
}

/**
 * `/api/v1/user/keyStatus` and `/api/v1/user/keyBackup`: the caller's own published key and
 * encrypted key backup. The account is always the one in the verified token; nothing in the
 * request can name another, so "someone else's" and "none" cannot be told apart.
 */
export const keyBackupRoutes = ({ services, requireAuth, writes }: Deps): Router => {
  const router = Router();

  router.get('/keyStatus', requireAuth, async (_req, res) => {
    respond(res, 200, 'Key status fetched', await services.user.keyStatus({ userId: currentUserId(res) }));
  });

  router.get('/keyBackup', requireAuth, async (_req, res) => {
    respond(res, 200, 'Key backup fetched', await services.user.keyBackup({ userId: currentUserId(res) }));
  });

  router.put('/keyBackup', requireAuth, writes.byUser, async (req, res) => {
    const { backup } = parseWith(storeKeyBackupBodySchema, req.body);
    const stored = await services.user.storeKeyBackup({
      userId: currentUserId(res),
      backup: parseKeyBackup(backup),
    });
    respond(res, 200, 'Key backup stored', stored);
  });

  // The sealed account state alone: read without spending a backup download, replaced by any
  // browser of the account without the backup's secrets (docs/crypto.md, "What travels with the keys").
  router.get('/keyBackup/state', requireAuth, async (_req, res) => {
    respond(
      res,
      200,
      'Account state fetched',
      await services.user.accountState({ userId: currentUserId(res) }),
    );
  });

  router.put('/keyBackup/state', requireAuth, writes.byUser, async (req, res) => {
    const { state } = parseWith(storeAccountStateBodySchema, req.body);
    const stored = await services.user.storeAccountState({
      userId: currentUserId(res),
      state: parseAccountState(state),
    });
    respond(res, 200, 'Account state stored', stored);
  });

  return router;
};
