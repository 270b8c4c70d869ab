import { Router } from 'express';
import { idSchema, parseWith, sendGroupBodySchema, sendIndividualBodySchema } from '@veil/contracts';
import { currentUserId } from '../../middleware/auth.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

/**
 * `/api/v1/message/*` (spec section 7). The server only ever receives ciphertext and wrapped keys.
 * A body may carry a `clientMessageId`; a retry with the same one answers with the stored message
 * (docs/realtime.md, "Retries are safe").
 */
export const messageRoutes = ({ services }: { services: ServiceClients }): Router => {
  const router = Router();

  router.post('/sendIndividualMessage/:recipientId', async (req, res) => {
    const recipientId = parseWith(idSchema, req.params.recipientId);
    const body = parseWith(sendIndividualBodySchema, req.body);
    const userId = currentUserId(res);
    const { chat, position } = await services.chat.ensureDirect({ userId, otherUserId: recipientId });
    const { message } = await services.message.send({
      userId,
      chatId: chat._id,
      content: body.encryptedMessage,
      iv: body.iv,
      encryptedKeys: {
        [recipientId]: body.encryptedAESKeyForRecipient,
        [userId]: body.encryptedAESKeyForSender,
      },
      replyTo: body.replyTo ?? null,
      afterChatPosition: position,
      ...(body.clientMessageId && { clientMessageId: body.clientMessageId }),
      ...(body.attachments?.length && { attachments: body.attachments }),
    });
    respond(res, 201, 'Message sent', { message, chat });
  });

  router.post('/sendGroupMessage/:chatId', async (req, res) => {
    const chatId = parseWith(idSchema, req.params.chatId);
    const body = parseWith(sendGroupBodySchema, req.body);
    const { message } = await services.message.send({
      userId: currentUserId(res),
      chatId,
      content: body.encryptedMessage,
      iv: body.iv,
      encryptedKeys: body.encryptedKeys,
      replyTo: body.replyTo ?? null,
      ...(body.clientMessageId && { clientMessageId: body.clientMessageId }),
      ...(body.attachments?.length && { attachments: body.attachments }),
    });
    respond(res, 201, 'Message sent', { message });
  });

  return router;
};
