import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { limits } from '../limits.ts';
import {
  attachmentIdsSchema,
  clientMessageIdSchema,
  messageSignatureSchema,
  type ChatUnread,
  type MessageView,
} from '../http/schemas.ts';
import { attachmentOperations } from './attachment.rpc.ts';
import { pushOperations } from './push.rpc.ts';
import { reportOperations } from './report.rpc.ts';
import { defineRpcService, operation } from './rpc.ts';

const seenReport = z.object({ chatId: idSchema, messageId: idSchema });
const sealed = z.object({
  content: z.string(),
  iv: z.string(),
  encryptedKeys: z.record(z.string(), z.string()),
});

/** The message service: owns messages; learns chat membership from chat events. */
export const messageRpc = defineRpcService('message', {
  /** Persists a message from a chat member. `afterChatPosition`: wait until membership has caught up. */
  send: operation<{ message: MessageView }>()(
    z.object({
      userId: idSchema,
      chatId: idSchema,
      content: z.string(),
      iv: z.string(),
      encryptedKeys: z.record(z.string(), z.string()),
      replyTo: idSchema.nullish(),
      /** For one-to-one sends, the recipient; the key map must then be exactly {sender, recipient}. */
      afterChatPosition: z.number().int().nonnegative().optional(),
      /** The sender's idempotency key: a retry with the same key answers with the stored message. */
      clientMessageId: clientMessageIdSchema.optional(),
      /** Blob ids of complete uploads of this sender in this chat, sent with the message. */
      attachments: attachmentIdsSchema.optional(),
      /** The sender's signature; a signed message names its `clientMessageId` (the signature covers it). */
      signature: messageSignatureSchema.optional(),
    }),
    // Every send is parsed at the edge first (the HTTP bodies, the socket's `send message`).
    { checkedAtEdge: true },
  ),
  history: operation<{ messages: MessageView[]; hasMore: boolean }>()(
    z.object({
      userId: idSchema,
      chatId: idSchema,
      before: z.number().int().positive().optional(),
      after: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().optional(),
    }),
  ),
  /** Marks messages seen by `userId` (only others' messages in chats the user belongs to). */
  markSeen: operation<{ marked: { chatId: string; messageId: string }[] }>()(
    z.object({ userId: idSchema, reports: z.array(seenReport).max(500) }),
  ),
  /** The user's unread counts and newest messages, for every chat of theirs that has messages. */
  unread: operation<{ chats: ChatUnread[] }>()(z.object({ userId: idSchema })),
  /** The sender replaces a message's text (within the time limit), keyed for the current members. */
  edit: operation<{ message: MessageView }>()(
    sealed.extend({ userId: idSchema, messageId: idSchema, signature: messageSignatureSchema.optional() }),
  ),
  /**
   * `everyone`: the sender deletes it for all (within the time limit); its ciphertext leaves the
   * log and the read models. `me`: a member hides it from their own history, at any time.
   */
  remove: operation<{ chatId: string; messageId: string }>()(
    z.object({
      userId: idSchema,
      messageId: idSchema,
      scope: z.enum(['everyone', 'me']),
      /** A deletion for everyone's signature, by its sender. */
      signature: messageSignatureSchema.optional(),
    }),
  ),
  /** Sets the member's reaction (encrypted like a message), or removes it with `reaction: null`. */
  react: operation<{ chatId: string; messageId: string }>()(
    z.object({
      userId: idSchema,
      messageId: idSchema,
      reaction: sealed.extend({ signature: messageSignatureSchema.optional() }).nullable(),
      /** With `reaction: null`: the member's signature over taking it back. */
      removalSignature: messageSignatureSchema.optional(),
    }),
  ),
  /** Stores the caller's own message keys re-wrapped for their current key; answers how many were new. */
  rewrap: operation<{ rewrapped: number }>()(
    z.object({
      userId: idSchema,
      copies: z.array(z.object({ messageId: idSchema, encryptedKey: z.string() })).max(limits.rewrapBatchMax),
    }),
  ),
  /** One message in the API shape (trusted internal callers: the realtime gateway). */
  getMessage: operation<{ message: MessageView }>()(z.object({ messageId: idSchema })),
  /** Resolves once this service has applied the user log up to `position` (a block takes effect). */
  userApplied: operation<Record<string, never>>()(z.object({ position: z.number().int().nonnegative() })),
  ...attachmentOperations,
  ...pushOperations,
  ...reportOperations,
});
