import { z } from 'zod';
import { messageSignatureSchema } from '../http/schemas.ts';
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
    /** The sender's signature, stored and relayed as sent; absent on unsigned messages. */
    signature: messageSignatureSchema.optional(),
    /** When it disappears, from the chat's timer at the time it was sent; absent: it stays. */
    expiresAt: z.iso.datetime().optional(),
  }),
);
export const MessageSeen = defineEvent(
  'MessageSeen',
  z.object({ messageId: idSchema, chatId: idSchema, userId: idSchema }),
);

/** Ciphertext of one message or reaction: AES-GCM output, its iv, the key wrapped per member. */
const sealed = { content: z.string(), iv: z.string(), encryptedKeys: z.record(z.string(), z.string()) };

/** The sender replaced the text: new ciphertext, keyed for the chat's members at the time of the edit. */
export const MessageEdited = defineEvent(
  'MessageEdited',
  z.object({
    messageId: idSchema,
    chatId: idSchema,
    senderId: idSchema,
    ...sealed,
    /** The sender's signature over the edit, stored and relayed as sent; absent on unsigned edits. */
    signature: messageSignatureSchema.optional(),
  }),
);

/**
 * Deleted for everyone. Every earlier event of the message that carries ciphertext (its
 * MessageSent, edits, reactions) is erased from the log once this is recorded, so this event
 * holds what the "message deleted" tombstone shows: who sent it, when, and where in the history.
 */
export const MessageDeleted = defineEvent(
  'MessageDeleted',
  z.object({
    messageId: idSchema,
    chatId: idSchema,
    senderId: idSchema,
    deletedBy: idSchema,
    sentAt: z.iso.datetime(),
    /** The position of its MessageSent: the message's place in the history. */
    seq: z.number().int().positive(),
    /** The sender's signature over the deletion, kept with the tombstone; absent when unsigned. */
    signature: messageSignatureSchema.optional(),
    /** Blob ids of its files, removed from the blob store with it; absent: none. */
    attachments: z.array(idSchema).optional(),
    /** When a disappearing message disappears, tombstone and all; absent: it stays (or deleted before this was kept). */
    expiresAt: z.iso.datetime().optional(),
  }),
);

/**
 * Its disappearing timer ran out: the message leaves every read model, its ciphertext events
 * are erased from the log and its files from the blob store. This event names nothing of its
 * content (docs/disappearing-messages.md).
 */
export const MessageExpired = defineEvent(
  'MessageExpired',
  z.object({
    messageId: idSchema,
    chatId: idSchema,
    /** Blob ids of its files, removed with it; absent: none. */
    attachments: z.array(idSchema).optional(),
  }),
);

/** Deleted for one account only ("delete for me"): hidden from that user's history on every device. */
export const MessageHidden = defineEvent(
  'MessageHidden',
  z.object({ messageId: idSchema, chatId: idSchema, userId: idSchema }),
);

/** A member's reaction, end-to-end encrypted like a message: the server never sees the emoji. */
export const ReactionSet = defineEvent(
  'ReactionSet',
  z.object({
    messageId: idSchema,
    chatId: idSchema,
    userId: idSchema,
    ...sealed,
    /** The member's signature over the reaction, stored and relayed as sent. */
    signature: messageSignatureSchema.optional(),
  }),
);
export const ReactionRemoved = defineEvent(
  'ReactionRemoved',
  z.object({
    messageId: idSchema,
    chatId: idSchema,
    userId: idSchema,
    /** The member's signature over taking the reaction back, stored and relayed as sent. */
    signature: messageSignatureSchema.optional(),
  }),
);

/**
 * A member's own copy of the message key, re-wrapped for the member's current key by one of their
 * browsers that still holds the key it was sealed for. The signed `encryptedKeys` are unchanged.
 */
export const MessageKeyRewrapped = defineEvent(
  'MessageKeyRewrapped',
  z.object({ messageId: idSchema, chatId: idSchema, userId: idSchema, encryptedKey: z.string() }),
);

/** Events of a message that carry ciphertext: erased from the log when the message is deleted. */
export const contentEventTypes: readonly string[] = [
  'MessageSent',
  'MessageEdited',
  'ReactionSet',
  'MessageKeyRewrapped',
];

export const messageEventSchema = z.discriminatedUnion('type', [
  MessageSent,
  MessageSeen,
  MessageEdited,
  MessageDeleted,
  MessageExpired,
  MessageHidden,
  ReactionSet,
  ReactionRemoved,
  MessageKeyRewrapped,
]);
export type MessageEvent = z.infer<typeof messageEventSchema>;

export const messageStreamId = (messageId: string) => `msg-${messageId}`;
