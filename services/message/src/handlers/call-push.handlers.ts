import { callPushFits, type CallPushPayload, type pushOperations } from '@veil/contracts';
import type { RpcImplementation } from '@veil/kernel';
import type { Logger } from '@veil/ports';
import type { PushReadModels } from '../projections/push.projection.ts';
import type { MessageReadModels } from '../projections/timeline.projection.ts';
import type { PushSettings } from '../settings.ts';
import { blockedBetween } from './blocked-between.ts';

/** A call rings for 45 s: a push still queued after a minute would ring for a call long over. */
const callPushTtlSeconds = 60;

type Deps = {
  models: PushReadModels & Pick<MessageReadModels, 'memberships' | 'blocks'>;
  settings: PushSettings | undefined;
  log: Logger;
};

/**
 * `pushCall`: rings a callee who has no browser connected through Web Push (docs/calls.md,
 * "Ringing through Web Push"). The gateway already checked that both are members of the chat;
 * this checks it again against its own membership, and that neither of the two blocked the
 * other (a blocked contact's calls never ring). What is pushed is the caller's sealed, signed
 * signal, which the service worker checks before it shows anything.
 */
export const callPushHandlers = ({
  models,
  settings,
  log,
}: Deps): RpcImplementation<Pick<typeof pushOperations, 'pushCall'>> => {
  return {
    async pushCall({ chatId, from, to, callId, signal }) {
      if (!settings) return { pushed: false };
      const membership = await models.memberships.get(chatId);
      if (!membership?.members.includes(from) || !membership.members.includes(to)) return { pushed: false };
      if (await blockedBetween(models.blocks, [from, to])) return { pushed: false };
      const caller = { _id: from };
      if (!callPushFits({ kind: 'call', userId: to, chatId, callId, caller, signal }))
        return { pushed: false };
      const subscriptions = await models.pushSubscriptions.find({ userId: to });
      if (!subscriptions.length) return { pushed: false };
      const username = (await models.pushNames.get(from))?.username ?? null;
      const payload: CallPushPayload = {
        kind: 'call',
        userId: to,
        chatId,
        callId,
        caller: { ...caller, username },
        signal,
      };
      const text = JSON.stringify(payload);
      const sent = await Promise.all(
        subscriptions.map(async (doc) => {
          try {
            const { status } = await settings.delivery.send(doc, text, {
              ttlSeconds: callPushTtlSeconds,
              urgency: 'high',
            });
            // A subscription gone for good is removed by the message pushes' sender when it meets it.
            if (status >= 400) log.warn({ status, subscriptionId: doc._id }, 'call push refused');
            return status < 400;
          } catch (err) {
            log.warn({ err, subscriptionId: doc._id }, 'call push not delivered');
            return false;
          }
        }),
      );
      return { pushed: sent.some(Boolean) };
    },
  };
};
