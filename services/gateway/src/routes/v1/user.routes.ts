import { Router, type RequestHandler } from 'express';
import {
  idSchema,
  loginBodySchema,
  parseKeyBackupText,
  parseWith,
  privacySchema,
  refreshBodySchema,
  parseKeyLogEntryText,
  registerBodySchema,
  updatePasswordBodySchema,
  updateProfileBodySchema,
} from '@veil/contracts';
import type { BlobStore, IdGenerator } from '@veil/ports';
import { currentUserId } from '../../middleware/auth.ts';
import { pictureUpload, withStoredPicture } from '../../middleware/picture-upload.ts';
import type { WriteLimits } from '../../middleware/write-limits.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { keyBackupRoutes } from './key-backup.routes.ts';
import { keyChangeRoutes } from './key-log.routes.ts';
import { respond } from './respond.ts';

interface Deps {
  services: ServiceClients;
  blobs: BlobStore;
  ids: IdGenerator;
  requireAuth: RequestHandler;
  writes: WriteLimits;
}

/**
 * `/api/v1/user/*` (docs/api.md), plus `refresh` and `logout` for the token lifecycle and the
 * encrypted key backup (`key-backup.routes.ts`) and the caller's key changes (`key-log.routes.ts`).
 */
export const userRoutes = ({ services, blobs, ids, requireAuth, writes }: Deps): Router => {
  const router = Router();

  const withPicture = <T>(file: Express.Multer.File | undefined, work: (key: string | null) => Promise<T>) =>
    withStoredPicture({ blobs, ids }, file, work);

  router.post('/register', writes.byIp, pictureUpload, async (req, res) => {
    const body = parseWith(registerBodySchema, req.body);
    const keyBackup = body.keyBackup === undefined ? undefined : parseKeyBackupText(body.keyBackup);
    const keyLogEntry = body.keyLogEntry === undefined ? undefined : parseKeyLogEntryText(body.keyLogEntry);
    const user = await withPicture(req.file, async (pictureKey) => {
      const { user } = await services.user.register({
        username: body.username,
        publicKey: body.publicKey,
        ...(body.signingKey ? { signingKey: body.signingKey } : {}),
        ...(keyLogEntry ? { keyLogEntry } : {}),
        pictureKey,
        ...(keyBackup ? { keyBackup } : {}),
      });
      try {
        await services.auth.registerCredentials({
          userId: user._id,
          username: user.username,
          password: body.password,
        });
      } catch (error) {
        await services.user.cancelRegistration({ userId: user._id, username: user.username });
        throw error;
      }
      return user;
    });
    respond(res, 201, 'User registered successfully', { user });
  });

  router.post('/login', writes.byIp, async (req, res) => {
    const body = parseWith(loginBodySchema, req.body);
    const tokens = await services.auth.login({ ...body, clientIp: req.ip ?? 'unknown' });
    const { user } = await services.user.get({ userId: tokens.userId });
    respond(res, 200, 'Login successful', {
      user: { accesstoken: tokens.accessToken, refreshtoken: tokens.refreshToken, loggedUser: user },
    });
  });

  router.post('/refresh', writes.byIp, async (req, res) => {
    const body = parseWith(refreshBodySchema, req.body);
    const tokens = await services.auth.refresh({ refreshToken: body.refreshtoken });
    respond(res, 200, 'Token refreshed', {
      accesstoken: tokens.accessToken,
      refreshtoken: tokens.refreshToken,
    });
  });

  router.post('/logout', writes.byIp, async (req, res) => {
    const body = parseWith(refreshBodySchema, req.body);
    await services.auth.logout({ refreshToken: body.refreshtoken });
    respond(res, 200, 'Logged out', {});
  });

  router.get('/getuser', requireAuth, async (_req, res) => {
    const { user } = await services.user.get({ userId: currentUserId(res) });
    respond(res, 200, 'User fetched', user);
  });

  router.get('/getallusers', async (_req, res) => {
    respond(res, 200, 'Users fetched', (await services.user.list({})).users);
  });

  router.get('/searchuser', async (req, res) => {
    const query = typeof req.query.username === 'string' ? req.query.username : '';
    respond(res, 200, 'Users fetched', (await services.user.search({ query: query.slice(0, 200) })).users);
  });

  router.get('/publicKey/:userId', async (req, res) => {
    const userId = parseWith(idSchema, req.params.userId);
    respond(res, 200, 'Public key fetched', await services.user.publicKey({ userId }));
  });

  router.put('/updateProfile', requireAuth, writes.byUser, pictureUpload, async (req, res) => {
    const body = parseWith(updateProfileBodySchema, req.body);
    const userId = currentUserId(res);
    const result = await withPicture(req.file, (pictureKey) =>
      services.user.updateProfile({
        userId,
        ...(body.username !== undefined ? { username: body.username } : {}),
        ...(pictureKey ? { pictureKey } : {}),
      }),
    );
    if (result.replacedPictureKey) await blobs.delete(result.replacedPictureKey);
    respond(res, 200, 'Profile updated successfully', result.user);
  });

  router.put('/updatePassword', requireAuth, writes.byUser, async (req, res) => {
    const body = parseWith(updatePasswordBodySchema, req.body);
    await services.auth.changePassword({
      userId: currentUserId(res),
      currentPassword: body.currentPassword,
      password: body.password,
      clientIp: req.ip ?? 'unknown',
    });
    respond(res, 200, 'Password updated successfully', {});
  });

  /** The caller's privacy switches (docs/api.md, "Privacy"); the server enforces them. */
  router.get('/privacy', requireAuth, async (_req, res) => {
    respond(
      res,
      200,
      'Privacy settings',
      (await services.user.privacy({ userId: currentUserId(res) })).privacy,
    );
  });

  router.put('/privacy', requireAuth, writes.byUser, async (req, res) => {
    const privacy = parseWith(privacySchema, req.body);
    const result = await services.user.setPrivacy({ userId: currentUserId(res), privacy });
    respond(res, 200, 'Privacy settings saved', result.privacy);
  });

  /** The caller's block list (docs/api.md, "Blocking"): only ever the token's own. */
  router.get('/blocks', requireAuth, async (_req, res) => {
    respond(res, 200, 'Blocked users', (await services.user.blocks({ userId: currentUserId(res) })).users);
  });

  const setBlocked =
    (blocked: boolean): RequestHandler =>
    async (req, res) => {
      const otherUserId = parseWith(idSchema, req.params.userId);
      const { users, position } = await services.user.setBlocked({
        userId: currentUserId(res),
        otherUserId,
        blocked,
      });
      // Answered once the services that enforce it have applied it: the next send already sees it.
      await Promise.all([
        services.chat.userApplied({ position }),
        services.message.userApplied({ position }),
      ]);
      respond(res, 200, blocked ? 'User blocked' : 'User unblocked', users);
    };
  router.put('/blocks/:userId', requireAuth, writes.byUser, setBlocked(true));
  router.delete('/blocks/:userId', requireAuth, writes.byUser, setBlocked(false));

  router.use(keyBackupRoutes({ services, requireAuth, writes }));
  router.use(keyChangeRoutes({ services, requireAuth, writes }));

  return router;
};
