import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The push context, owned by the message service. Stream `push-<subscriptionId>`: one browser's
 * Web Push subscription, whose id is derived from its endpoint (the same browser subscribing
 * again appends to the same stream). A subscription belongs to the signed-in session that made
 * it: the session's end (logout, password change) ends it too.
 */
export const PushSubscribed = defineEvent(
  'PushSubscribed',
  z.object({
    subscriptionId: idSchema,
    userId: idSchema,
    sessionId: idSchema.optional(),
    endpoint: z.string(),
    /** The browser's ECDH public key and auth secret (base64url): the push is encrypted to them. */
    keys: z.object({ p256dh: z.string(), auth: z.string() }),
  }),
);
export const PushUnsubscribed = defineEvent(
  'PushUnsubscribed',
  z.object({
    subscriptionId: idSchema,
    userId: idSchema,
    /** `user`: the browser asked (logout, notifications off); `gone`: the push service answered 404/410. */
    reason: z.enum(['user', 'gone']),
  }),
);

export const pushEventSchema = z.discriminatedUnion('type', [PushSubscribed, PushUnsubscribed]);
export type PushEvent = z.infer<typeof pushEventSchema>;

export const pushStreamId = (subscriptionId: string) => `push-${subscriptionId}`;
