import { z } from 'zod';
import { idSchema } from '../events/event.ts';

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
 */
export const pushPayloadSchema = z.object({
  kind: z.literal('message'),
  /** The account the push is for: whose keys open it, whose settings apply. */
  userId: idSchema,
  chatId: idSchema,
  messageId: idSchema,
  sender: z.object({ _id: idSchema, username: z.string().nullable() }),
  sentAt: z.string(),
  message: z.object({ content: z.string(), iv: z.string(), encryptedKey: z.string() }).optional(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
