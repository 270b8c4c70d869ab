import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { pushSubscriptionSchema } from '../http/push.schemas.ts';
import { callIdSchema, sealedCallSignalSchema } from '../realtime/call.schemas.ts';
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
  /**
   * Pushes one call signal, as the realtime gateway relayed it, to the callee's subscribed
   * browsers (trusted internal caller: the gateway, when the callee has no socket anywhere).
   * `pushed`: a push went to at least one browser; false when the callee has none subscribed,
   * one of the two blocked the other, or the push would not fit.
   */
  pushCall: operation<{ pushed: boolean }>()(
    z.object({
      chatId: idSchema,
      from: idSchema,
      to: idSchema,
      callId: callIdSchema,
      signal: sealedCallSignalSchema,
    }),
  ),
};
