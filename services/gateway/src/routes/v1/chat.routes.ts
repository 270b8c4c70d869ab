import { Router } from 'express';
import { createGroupBodySchema, historyQuerySchema, idSchema, parseWith } from '@veil/contracts';
import { z } from 'zod';
import { currentUserId } from '../../middleware/auth.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

const seqQuerySchema = historyQuerySchema.extend({
  before: z.coerce.number().int().positive().optional(),
  after: z.coerce.number().int().nonnegative().optional(),
});

/** `/api/v1/chat/*` (spec section 7). Every route needs a token; a chat you are not in is "not found". */
export const chatRoutes = ({ services }: { services: ServiceClients }): Router => {
  const router = Router();

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
    const { chat } = await services.chat.createGroup({
      userId: currentUserId(res),
      name: body.groupName,
      memberIds: body.participants,
    });
    respond(res, 201, 'Group chat created', chat);
  });

  return router;
};
