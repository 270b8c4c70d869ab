import { createHash } from 'node:crypto';
import { DomainError, pushStreamId, type PushEvent, type pushOperations } from '@veil/contracts';
import { newEvent, type RpcImplementation, type RunningProjection } from '@veil/kernel';
import type { Ports } from '@veil/ports';
import { pushEndpointProblem } from '../domain/push-endpoint.ts';
import type { PushReadModels } from '../projections/push.projection.ts';
import type { PushSettings } from '../settings.ts';

type Deps = Pick<Ports, 'clock' | 'ids'> & {
  store: Ports['bus'];
  models: PushReadModels;
  projection: RunningProjection;
  settings: PushSettings | undefined;
};

/** One stream per browser: the id is the endpoint's digest, so a browser subscribing again is the same one. */
export const subscriptionIdOf = (endpoint: string) =>
  createHash('sha256').update(endpoint).digest('base64url');

const unavailable = () => new DomainError('UNAVAILABLE', 'Push notifications are not set up on this server');

/** Browsers' Web Push subscriptions (docs/web.md, "Push notifications"). */
export const pushHandlers = (deps: Deps): RpcImplementation<Omit<typeof pushOperations, 'pushCall'>> => {
  const { store, models, projection, settings } = deps;

  const appendAndApply = async (event: PushEvent) => {
    const { position } = await store.append('push', event);
    await projection.waitFor('push', position);
  };
  const unsubscribed = (subscriptionId: string, userId: string, reason: 'user' | 'gone') =>
    newEvent(deps, 'PushUnsubscribed', pushStreamId(subscriptionId), { subscriptionId, userId, reason });

  return {
    async pushKey() {
      if (!settings) throw unavailable();
      return { publicKey: settings.delivery.publicKey };
    },

    async pushSubscribe({ userId, sessionId, subscription }) {
      if (!settings) throw unavailable();
      const problem = pushEndpointProblem(subscription.endpoint, {
        allowLocal: settings.allowLocalEndpoints,
      });
      if (problem) throw new DomainError('VALIDATION_FAILED', problem);
      const subscriptionId = subscriptionIdOf(subscription.endpoint);
      // A user's browsers are few; past the limit the longest-subscribed one gives way.
      const others = (await models.pushSubscriptions.find({ userId })).filter(
        (doc) => doc._id !== subscriptionId,
      );
      const excess = others.length + 1 - settings.maxSubscriptionsPerUser;
      if (excess > 0) {
        const oldest = others.sort((a, b) => a.subscribedAt.localeCompare(b.subscribedAt)).slice(0, excess);
        for (const doc of oldest) await appendAndApply(unsubscribed(doc._id, userId, 'user'));
      }
      await appendAndApply(
        newEvent(deps, 'PushSubscribed', pushStreamId(subscriptionId), {
          subscriptionId,
          userId,
          ...(sessionId && { sessionId }),
          endpoint: subscription.endpoint,
          keys: subscription.keys,
        }),
      );
      return { subscriptionId };
    },

    async pushUnsubscribe({ userId, endpoint }) {
      const subscriptionId = subscriptionIdOf(endpoint);
      const doc = await projection.readFresh(
        'push',
        () => models.pushSubscriptions.get(subscriptionId),
        Boolean,
      );
      // Another user's subscription answers as a missing one: endpoints cannot be probed.
      if (doc?.userId !== userId) throw new DomainError('NOT_FOUND', 'Subscription not found');
      await appendAndApply(unsubscribed(subscriptionId, userId, 'user'));
      return {};
    },
  };
};
