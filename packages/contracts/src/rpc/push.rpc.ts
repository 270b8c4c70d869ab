import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { pushSubscriptionSchema } from '../http/push.schemas.ts';
import { operation } from './rpc.ts';

/**
 * The message service's Web Push operations (served under the message contract). `userId` and
 * `sessionId` always come from the verified token.
 */
export const pushOperations = {
  /** The application server's public VAPID key, which browsers subscribe with. */
  pushKey: operation<{ publicKey: string }>()(z.object({})),
  /** Stores this browser's subscription for the user (replacing whoever held the same endpoint). */
  pushSubscribe: operation<{ subscriptionId: string }>()(
    z.object({ userId: idSchema, sessionId: idSchema.optional(), subscription: pushSubscriptionSchema }),
  ),
  /** Removes one of the user's own subscriptions (NOT_FOUND for anyone else's). */
  pushUnsubscribe: operation<Record<string, never>>()(
    z.object({ userId: idSchema, endpoint: z.string().min(1).max(2048) }),
  ),
};
