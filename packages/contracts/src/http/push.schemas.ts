import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { keyMapSummarySchema, messageSignatureSchema } from './schemas.ts';

const base64url = (name: string, bytes: number) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^[A-Za-z0-9_-]+=*$/, `${name} must be base64url`)
    .refine((value) => Math.floor((value.replace(/=+$/, '').length * 3) / 4) === bytes, {
      error: `${name} must encode ${bytes} bytes`,
    });

/**
 * A browser's push subscription, as `PushSubscription.toJSON()` gives it: where to post and the
 * keys the push is encrypted to (an uncompressed P-256 point and a 16-byte auth secret).
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: 'endpoint must be an http(s) URL' }).max(2048),
  expirationTime: z.number().nullish(),
  keys: z.object(
    { p256dh: base64url('keys.p256dh', 65), auth: base64url('keys.auth', 16) },
    { error: 'keys (p256dh and auth) are required' },
  ),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;

export const pushUnsubscribeBodySchema = z.object({ endpoint: z.string().min(1).max(2048) });

/**
 * What a push carries to the service worker, encrypted by Web Push to the browser's keys. The
 * message itself is still the sender's ciphertext with the recipient's wrapped key: only the
 * account key in the browser opens it. `message` is absent when it would not fit in a push:
 * the worker then says only that a message arrived.
 *
 * Beside it, what the worker checks the sender's signature with (docs/crypto.md, "Push
 * notifications"): the signature, the client message id, the id replied to, whether the chat is
 * a group and the key map's summary. The server fills them in, and a lying server gains little:
 * the worker rebuilds the signed message from them and checks it against the sender's key log as
 * the page last checked it, so it cannot forge or alter a text, move a group message to another
 * chat, or pass one sender's message off as another's (each fails, and shows as a bare "new
 * message"). What it can do: drop or replay pushes, show a sender's real name as anything, and
 * show a valid one-to-one message under another chat id (a one-to-one message is signed for its
 * two people, not for a chat id), whose notification then only opens that chat.
 */
export const pushPayloadSchema = z.object({
  kind: z.literal('message'),
  /** The account the push is for: whose keys open it, whose settings apply. */
  userId: idSchema,
  chatId: idSchema,
  messageId: idSchema,
  sender: z.object({ _id: idSchema, username: z.string().nullable() }),
  sentAt: z.string(),
  message: z
    .object({
      content: z.string(),
      iv: z.string(),
      encryptedKey: z.string(),
      isGroupChat: z.boolean(),
      keyMap: keyMapSummarySchema,
      replyTo: idSchema.nullable(),
      /** Absent on messages sent without one. */
      clientMessageId: z.string().optional(),
      /** Absent on unsigned messages. */
      signature: messageSignatureSchema.optional(),
    })
    .optional(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
