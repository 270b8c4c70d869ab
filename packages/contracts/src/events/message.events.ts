import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The message context, stream `msg-<messageId>`. The server only ever holds ciphertext:
 * `content` is AES-GCM output, `encryptedKeys` maps each member id to the message key wrapped
 * with that member's RSA-OAEP public key.
 */
export const MessageSent = defineEvent(
  'MessageSent',
  z.object({
    messageId: idSchema,
    chatId: idSchema,
    senderId: idSchema,
    content: z.string(),
    iv: z.string(),
    encryptedKeys: z.record(z.string(), z.string()),
    replyTo: idSchema.nullable(),
    /** The sender's key for this message (retries carry the same one); absent on older events. */
    clientMessageId: z.string().optional(),
    /** Blob ids of the encrypted files sent with it (their keys are inside `content`); absent: none. */
    attachments: z.array(idSchema).optional(),
  }),
);
export const MessageSeen = defineEvent(
  'MessageSeen',
  z.object({ messageId: idSchema, chatId: idSchema, userId: idSchema }),
);

export const messageEventSchema = z.discriminatedUnion('type', [MessageSent, MessageSeen]);
export type MessageEvent = z.infer<typeof messageEventSchema>;

export const messageStreamId = (messageId: string) => `msg-${messageId}`;
