import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';

/** One browser's live subscription. */
export interface PushSubscriptionDoc {
  _id: string;
  userId: string;
  sessionId: string | null;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  subscribedAt: string;
}

/** A session's subscriptions, so that its end removes them; an ended session takes no new ones. */
export interface PushSessionDoc {
  _id: string;
  subscriptionIds: string[];
  ended: boolean;
}

/** The name a push shows for its sender. */
export interface PushNameDoc {
  _id: string;
  username: string;
}

export type PushReadModels = {
  pushSubscriptions: Collection<PushSubscriptionDoc>;
  pushSessions: Collection<PushSessionDoc>;
  pushNames: Collection<PushNameDoc>;
};

export const openPushReadModels = async (readStore: ReadStore): Promise<PushReadModels> => ({
  pushSubscriptions: await readStore.collection<PushSubscriptionDoc>('push_subscriptions', [
    { fields: { userId: 1 } },
  ]),
  pushSessions: await readStore.collection<PushSessionDoc>('push_sessions'),
  pushNames: await readStore.collection<PushNameDoc>('push_names'),
});

/**
 * Where each user's pushes go: the push context, minus the subscriptions of sessions that ended
 * (the access context: logout, password change), plus the user context for senders' names. A
 * projection of its own with its own checkpoint. Contexts are applied each in its own order, so
 * a session's end may be applied before its subscriptions: an ended session is remembered and
 * takes none.
 */
export const pushProjection = (
  models: PushReadModels,
): ProjectionDefinition<PushReadModels, 'push' | 'access' | 'user'> => ({
  name: 'message_push',
  contexts: ['push', 'access', 'user'],
  models,
  async handle({ event }, { pushSubscriptions, pushSessions, pushNames }) {
    switch (event.type) {
      case 'PushSubscribed': {
        const { subscriptionId, userId, sessionId, endpoint, keys } = event.data;
        if (sessionId) {
          const session = (await pushSessions.get(sessionId)) ?? {
            _id: sessionId,
            subscriptionIds: [],
            ended: false,
          };
          if (session.ended) return;
          if (!session.subscriptionIds.includes(subscriptionId))
            await pushSessions.put({
              ...session,
              subscriptionIds: [...session.subscriptionIds, subscriptionId],
            });
        }
        await pushSubscriptions.put({
          _id: subscriptionId,
          userId,
          sessionId: sessionId ?? null,
          endpoint,
          keys,
          subscribedAt: event.occurredAt,
        });
        return;
      }
      case 'PushUnsubscribed': {
        const doc = await pushSubscriptions.get(event.data.subscriptionId);
        if (doc?.userId === event.data.userId) await pushSubscriptions.delete(doc._id);
        return;
      }
      case 'SessionRevoked': {
        const { sessionId } = event.data;
        const session = await pushSessions.get(sessionId);
        for (const id of session?.subscriptionIds ?? []) {
          const doc = await pushSubscriptions.get(id);
          // The same browser may have subscribed again since, in a later session.
          if (doc?.sessionId === sessionId) await pushSubscriptions.delete(id);
        }
        await pushSessions.put({ _id: sessionId, subscriptionIds: [], ended: true });
        return;
      }
      case 'UserRegistered':
      case 'UserRenamed':
        await pushNames.put({ _id: event.data.userId, username: event.data.username });
        return;
      // The rest of the user context names no one's display name.
      case 'UsernameClaimed':
      case 'UsernameReleased':
      case 'ProfilePictureChanged':
      case 'UserRegistrationCancelled':
      case 'KeyBackupStored':
      case 'KeysPublished':
      case 'PrivacyChanged':
      case 'UserBlocked':
      case 'UserUnblocked':
        return;
      default: {
        // Every event of the contexts followed is named above: a new one must be decided on.
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});
