import { Router } from 'express';
import {
  deleteMessageBodySchema,
  deleteMessageQuerySchema,
  editCommandOf,
  editMessageBodySchema,
  idSchema,
  parseWith,
  reactionBodySchema,
  reactionOf,
  reportBodySchema,
  rewrapBodySchema,
  sendGroupBodySchema,
  sendCommandOf,
  sendIndividualBodySchema,
} from '@veil/contracts';
import type { RequestHandler } from 'express';
import { currentUserId } from '../../middleware/auth.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

/**
 * `/api/v1/message/*` (docs/api.md). The server only ever receives ciphertext and wrapped keys.
 * A body may carry a `clientMessageId`; a retry with the same one answers with the stored message
 * (docs/realtime.md, "Retries are safe").
 */
export const messageRoutes = ({
  services,
  reportBudget,
}: {
  services: ServiceClients;
  /** Reports spend a budget of their own: each is read by a person. */
  reportBudget: RequestHandler;
}): Router => {
  const router = Router();

  router.post('/sendIndividualMessage/:recipientId', async (req, res) => {
    const recipientId = parseWith(idSchema, req.params.recipientId);
    const body = parseWith(sendIndividualBodySchema, req.body);
    const userId = currentUserId(res);
    const { chat, position } = await services.chat.ensureDirect({ userId, otherUserId: recipientId });
    const keys = { [recipientId]: body.encryptedAESKeyForRecipient, [userId]: body.encryptedAESKeyForSender };
    const { message } = await services.message.send({
      ...sendCommandOf(userId, chat._id, keys, body),
      afterChatPosition: position,
    });
    respond(res, 201, 'Message sent', { message, chat });
  });

  router.post('/sendGroupMessage/:chatId', async (req, res) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    const body = parseWith(sendGroupBodySchema, req.body);
    const { message } = await services.message.send(
      sendCommandOf(currentUserId(res), chatId, body.encryptedKeys, body),
    );
    respond(res, 201, 'Message sent', { message });
  });

  /** The caller's unread counts and newest messages per chat; the caller is the token's user. */
  router.get('/unread', async (_req, res) => {
    const { chats } = await services.message.unread({ userId: currentUserId(res) });
    respond(res, 200, 'Unread counts fetched', chats);
  });

  /**
   * The caller's own message keys, re-wrapped for their current key by a browser that still holds
   * the old one (docs/crypto.md, "Key reset").
   */
  router.post('/rewrap', async (req, res) => {
    const { copies } = parseWith(rewrapBodySchema, req.body);
    const stored = await services.message.rewrap({ userId: currentUserId(res), copies });
    respond(res, 200, 'Message keys re-wrapped', stored);
  });

  /** The sender's new text, encrypted for the chat's current members (docs/api.md, "Changing a message"). */
  router.put('/:messageId', async (req, res) => {
    const messageId = parseWith(idSchema, req.params.messageId);
    const body = parseWith(editMessageBodySchema, req.body);
    const { message } = await services.message.edit({
      userId: currentUserId(res),
      messageId,
      ...editCommandOf(body),
    });
    respond(res, 200, 'Message edited', { message });
  });

  router.delete('/:messageId', async (req, res) => {
    const messageId = parseWith(idSchema, req.params.messageId);
    const query = parseWith(deleteMessageQuerySchema, req.query);
    const body = parseWith(deleteMessageBodySchema, req.body ?? {});
    const deleted = await services.message.remove({
      userId: currentUserId(res),
      messageId,
      scope: query.for,
      ...(body.signature && query.for === 'everyone' && { signature: body.signature }),
    });
    respond(res, 200, 'Message deleted', deleted);
  });

  /**
   * Reports another member's message (and optionally a few before it) to the operators, with the
   * decrypted text and franking key of each; the message service verifies them against the
   * franking tags their senders signed (docs/crypto.md, "Message franking").
   */
  router.post('/:messageId/report', reportBudget, async (req, res) => {
    const messageId = parseWith(idSchema, req.params.messageId);
    const body = parseWith(reportBodySchema, req.body);
    const { report } = await services.message.report({
      reporterId: currentUserId(res),
      messageId,
      text: body.text,
      frankingKey: body.frankingKey,
      earlier: body.earlier ?? [],
      reason: body.reason,
    });
    respond(res, 201, 'Report filed', { reportId: report._id });
  });

  router.put('/:messageId/reaction', async (req, res) => {
    const messageId = parseWith(idSchema, req.params.messageId);
    const body = parseWith(reactionBodySchema, req.body);
    const reaction = reactionOf(body);
    const reacted = await services.message.react({ userId: currentUserId(res), messageId, reaction });
    respond(res, 200, 'Reaction set', reacted);
  });

  router.delete('/:messageId/reaction', async (req, res) => {
    const messageId = parseWith(idSchema, req.params.messageId);
    // The body is optional: the member's signature over taking the reaction back.
    const { signature } = parseWith(deleteMessageBodySchema, req.body ?? {});
    const reacted = await services.message.react({
      userId: currentUserId(res),
      messageId,
      reaction: null,
      ...(signature && { removalSignature: signature }),
    });
    respond(res, 200, 'Reaction removed', reacted);
  });

  return router;
};
