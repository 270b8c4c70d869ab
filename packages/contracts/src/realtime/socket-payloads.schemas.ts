import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import {
  deleteMessageBodySchema,
  deleteMessageQuerySchema,
  editMessageBodySchema,
  reactionBodySchema,
  sendGroupBodySchema,
} from '../http/schemas.ts';

/**
 * `send message` over the socket (beside the HTTP sends, docs/realtime.md, "Sending over the socket"): the group body,
 * for any chat the sender is in, named by `chatId`. The chat must exist; a first message to
 * someone is still the HTTP call, which creates the chat.
 */
export const socketSendSchema = sendGroupBodySchema
  .omit({ encryptedAESKeyForRecipient: true, encryptedAESKeyForSender: true })
  .extend({ chatId: idSchema });
export type SocketSendPayload = z.infer<typeof socketSendSchema>;

/**
 * The same changes over the socket (docs/realtime.md, "Changing a message over the socket"): the
 * HTTP bodies, extended with the message the path names over HTTP, so both ways accept the same
 * fields and the same limits.
 */
const aboutMessage = { messageId: idSchema };
export const socketEditSchema = editMessageBodySchema.extend(aboutMessage);
export type SocketEditPayload = z.infer<typeof socketEditSchema>;
export const socketDeleteSchema = deleteMessageQuerySchema
  .extend(aboutMessage)
  .extend(deleteMessageBodySchema.shape);
export type SocketDeletePayload = z.infer<typeof socketDeleteSchema>;
export const socketReactSchema = reactionBodySchema.extend(aboutMessage);
export type SocketReactPayload = z.infer<typeof socketReactSchema>;
/** Taking a reaction back: the member's signature over the removal (an action of its own). */
export const socketUnreactSchema = z.object({ ...aboutMessage, ...deleteMessageBodySchema.shape });
export type SocketUnreactPayload = z.infer<typeof socketUnreactSchema>;
