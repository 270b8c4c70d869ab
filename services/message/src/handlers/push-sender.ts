import { durableName, pushStreamId, type MessageSentEvent } from '@veil/contracts';
import { keyMapSummaryOf } from '@veil/crypto';
import { newEvent } from '@veil/kernel';
import type { Logger, Ports, Subscription } from '@veil/ports';
import { pushPayloadFor, type PushSignatureContext } from '../domain/push-payload.ts';
import type { PushReadModels, PushSubscriptionDoc } from '../projections/push.projection.ts';
import type { MessageReadModels } from '../projections/timeline.projection.ts';
import type { PushSettings } from '../settings.ts';

/** A message a day old is no longer news: the push service may drop it after that. */
const pushTtlSeconds = 24 * 60 * 60;
/** Push services answer these when a subscription is gone for good. */
const goneStatuses = new Set([404, 410]);

type Deps = Pick<Ports, 'clock' | 'ids'> & {
  bus: Ports['bus'];
  /** The subscriptions and names, and the chats' memberships (whether a chat is a group). */
  models: PushReadModels & Pick<MessageReadModels, 'memberships'>;
  settings: PushSettings;
  log: Logger;
};

/**
 * Pushes every new message to the other members' subscribed browsers. One durable consumer
 * shared by the service's replicas, so each message is pushed once; it starts at new messages
 * (an old message is not news). Every member's browsers are pushed whether or not a tab of
 * theirs is open: the service worker shows nothing when one of the account's windows is visible
 * (docs/web.md, "Push notifications"). A push that fails is logged and not retried: a
 * notification is a courtesy, the message itself is stored.
 */
export const startPushSender = ({ bus, models, settings, log, ...deps }: Deps): Promise<Subscription> => {
  const remove = async (doc: PushSubscriptionDoc) => {
    const event = newEvent(deps, 'PushUnsubscribed', pushStreamId(doc._id), {
      subscriptionId: doc._id,
      userId: doc.userId,
      reason: 'gone',
    });
    await bus.append('push', event);
  };

  const pushTo = async (doc: PushSubscriptionDoc, payload: string) => {
    try {
      const { status } = await settings.delivery.send(doc, payload, {
        ttlSeconds: pushTtlSeconds,
        urgency: 'high',
      });
      if (goneStatuses.has(status)) await remove(doc);
      else if (status >= 400) log.warn({ status, subscriptionId: doc._id }, 'push refused');
    } catch (err) {
      log.warn({ err, subscriptionId: doc._id }, 'push not delivered');
    }
  };

  /**
   * What browsers check the signature with: the kind of chat (the send was checked against its
   * membership, so it is known) and the key map's summary, once per message. Null when the chat
   * is not known here: then the pushes carry the ids only.
   */
  const signatureContextOf = async (event: MessageSentEvent): Promise<PushSignatureContext | null> => {
    const membership = await models.memberships.get(event.data.chatId);
    if (!membership) return null;
    return { isGroupChat: membership.isGroupChat, keyMap: await keyMapSummaryOf(event.data.encryptedKeys) };
  };

  const onMessageSent = async (event: MessageSentEvent) => {
    const recipients = Object.keys(event.data.encryptedKeys).filter((id) => id !== event.data.senderId);
    if (!recipients.length) return;
    const subscriptions = await models.pushSubscriptions.find({ userId: { $in: recipients } });
    if (!subscriptions.length) return;
    const sender = await models.pushNames.get(event.data.senderId);
    const context = await signatureContextOf(event);
    await Promise.all(
      subscriptions.map((doc) =>
        pushTo(doc, pushPayloadFor(event, doc.userId, sender?.username ?? null, context)),
      ),
    );
  };

  return bus.subscribe({
    durable: durableName('message', 'push'),
    context: 'message',
    startAt: 'new',
    maxInFlight: 16,
    handler: async ({ event }) => {
      if (event.type === 'MessageSent') await onMessageSent(event);
    },
  });
};
