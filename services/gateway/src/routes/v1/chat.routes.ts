import { Router, type RequestHandler, type Request, type Response } from 'express';
import {
  addMembersBodySchema,
  createGroupBodySchema,
  disappearingBodySchema,
  historyQuerySchema,
  idSchema,
  parseWith,
  promoteAdminBodySchema,
  renameGroupBodySchema,
  signGroupStateBodySchema,
  signedChangeBodySchema,
  type chatRpc,
  type RpcInput,
} from '@veil/contracts';
import type { BlobStore, IdGenerator } from '@veil/ports';
import { z } from 'zod';
import { currentUserId } from '../../middleware/auth.ts';
import { pictureUpload, withStoredPicture } from '../../middleware/picture-upload.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

const seqQuerySchema = historyQuerySchema.extend({
  before: z.coerce.number().int().positive().optional(),
  after: z.coerce.number().int().nonnegative().optional(),
});

/** `/api/v1/chat/*` (docs/api.md). Every route needs a token; a chat you are not in is "not found". */
export const chatRoutes = ({
  services,
  blobs,
  ids,
}: {
  services: ServiceClients;
  blobs: BlobStore;
  ids: IdGenerator;
}): Router => {
  const router = Router();

  /**
   * The caller's signed change (docs/crypto.md, "Signed group state"): a JSON body field, or on
   * the multipart picture route a form field holding it as JSON.
   */
  const signedChangeOf = (req: Request): { signedChange?: unknown } => {
    const field: unknown = (req.body as { signedChange?: unknown } | undefined)?.signedChange;
    if (typeof field !== 'string') return { signedChange: field };
    try {
      return { signedChange: JSON.parse(field) };
    } catch {
      return { signedChange: field };
    }
  };

  type GroupChange = RpcInput<typeof chatRpc.operations.changeGroup>['change'];
  /** A group change by the caller; answers with the group as the caller now sees it (null once gone). */
  const changeGroup = async (req: Request, res: Response, change: GroupChange, done: string) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    const { signedChange } = parseWith(signedChangeBodySchema, signedChangeOf(req));
    const { chat, replacedPictureKey } = await services.chat.changeGroup({
      userId: currentUserId(res),
      chatId,
      change,
      ...(signedChange && { signedChange }),
    });
    if (replacedPictureKey) await blobs.delete(replacedPictureKey);
    respond(res, 200, done, chat);
  };

  router.get('/getallchats', async (_req, res) => {
    respond(
      res,
      200,
      'Chats fetched',
      (await services.chat.listForUser({ userId: currentUserId(res) })).chats,
    );
  });

  router.get('/getchatbyid/:chatId', async (req, res) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    respond(
      res,
      200,
      'Chat fetched',
      (await services.chat.getForUser({ userId: currentUserId(res), chatId })).chat,
    );
  });

  /**
   * Oldest first. Without a cursor: the newest page. `before=<seq>`: the page before it (scrolling
   * up). `after=<seq>`: what arrived since (catch-up after a reconnect). `hasMore` says whether
   * another page exists in that direction. See docs/api.md.
   */
  router.get('/getallmessages/:chatId', async (req, res) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    const query = parseWith(seqQuerySchema, req.query);
    const page = await services.message.history({
      userId: currentUserId(res),
      chatId,
      ...(query.before !== undefined ? { before: query.before } : {}),
      ...(query.after !== undefined ? { after: query.after } : {}),
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    });
    respond(res, 200, 'Messages fetched', page);
  });

  /**
   * Opens the caller's one-to-one chat with a user, creating it (without a message) on first use:
   * the Users page opens a chat without sending anything.
   */
  router.post('/direct/:userId', async (req, res) => {
    const otherUserId = parseWith(idSchema, req.params.userId);
    const { chat, created } = await services.chat.ensureDirect({ userId: currentUserId(res), otherUserId });
    respond(res, created ? 201 : 200, created ? 'Chat created' : 'Chat fetched', chat);
  });

  router.post('/creategroupchat', async (req, res) => {
    const body = parseWith(createGroupBodySchema, req.body);
    const { signedChange } = parseWith(signedChangeBodySchema, signedChangeOf(req));
    const { chat } = await services.chat.createGroup({
      userId: currentUserId(res),
      name: body.groupName,
      memberIds: body.participants,
      ...(signedChange && { signedChange }),
    });
    respond(res, 201, 'Group chat created', chat);
  });

  // Groups (docs/api.md, "Groups"): admins add, remove and promote members, rename the group and
  // set its picture; any member leaves.
  router.post('/:chatId/members', async (req, res) => {
    const { members } = parseWith(addMembersBodySchema, req.body);
    await changeGroup(req, res, { kind: 'add', memberIds: members }, 'Members added');
  });

  router.delete('/:chatId/members/:userId', async (req, res) => {
    const memberId = parseWith(idSchema, req.params.userId);
    await changeGroup(req, res, { kind: 'remove', memberId }, 'Member removed');
  });

  router.post('/:chatId/admins', async (req, res) => {
    const { userId } = parseWith(promoteAdminBodySchema, req.body);
    await changeGroup(req, res, { kind: 'promote', memberId: userId }, 'Admin added');
  });

  router.put('/:chatId/name', async (req, res) => {
    const { groupName } = parseWith(renameGroupBodySchema, req.body);
    await changeGroup(req, res, { kind: 'rename', name: groupName }, 'Group renamed');
  });

  /** Multipart with a `profilePicture` part, as profiles send theirs; without one, the picture is removed. */
  router.put('/:chatId/picture', pictureUpload, async (req, res) => {
    await withStoredPicture({ blobs, ids }, req.file, (pictureKey) =>
      changeGroup(req, res, { kind: 'picture', pictureKey }, 'Group picture changed'),
    );
  });

  /** Any member of any chat, one-to-one too: the disappearing-message timer (docs/disappearing-messages.md). */
  router.put('/:chatId/disappearing', async (req, res) => {
    const { seconds } = parseWith(disappearingBodySchema, req.body);
    await changeGroup(req, res, { kind: 'timer', seconds }, 'Disappearing messages timer set');
  });

  /** The group's changes with the signed change each carried, oldest first (members only). */
  router.get('/:chatId/changes', async (req, res) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    const { changes } = await services.chat.groupChanges({ userId: currentUserId(res), chatId });
    respond(res, 200, 'Group changes fetched', changes);
  });

  /** An admin signs the state of a group whose state is not signed yet. */
  router.post('/:chatId/changes/snapshot', async (req, res) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    const { signedChange } = parseWith(signGroupStateBodySchema, req.body);
    await services.chat.signGroupState({ userId: currentUserId(res), chatId, signedChange });
    respond(res, 201, 'Group state signed', null);
  });

  /** The caller's own list: archive (`archive`) or pin (`pin`) a chat, PUT on, DELETE off. */
  const setChatPref =
    (field: 'archived' | 'pinned', on: boolean, done: string): RequestHandler =>
    async (req, res) => {
      const chatId = parseWith(idSchema, req.params.chatId);
      const { chat } = await services.chat.setChatPrefs({ userId: currentUserId(res), chatId, [field]: on });
      respond(res, 200, done, chat);
    };
  router.put('/:chatId/archive', setChatPref('archived', true, 'Chat archived'));
  router.delete('/:chatId/archive', setChatPref('archived', false, 'Chat unarchived'));
  router.put('/:chatId/pin', setChatPref('pinned', true, 'Chat pinned'));
  router.delete('/:chatId/pin', setChatPref('pinned', false, 'Chat unpinned'));

  router.post('/:chatId/leave', async (req, res) => {
    await changeGroup(req, res, { kind: 'leave' }, 'Left the group');
  });

  return router;
};
