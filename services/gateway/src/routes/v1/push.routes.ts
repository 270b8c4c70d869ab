import { Router } from 'express';
import { parseWith, pushSubscriptionSchema, pushUnsubscribeBodySchema } from '@veil/contracts';
import { currentSessionId, currentUserId } from '../../middleware/auth.ts';
import type { ServiceClients } from '../../rpc-clients.ts';
import { respond } from './respond.ts';

/**
 * `/api/v1/push/*`: this browser's Web Push subscription (docs/web.md, "Push notifications"). A
 * subscription belongs to the session whose token made it, and ends with it.
 */
export const pushRoutes = ({ services }: { services: ServiceClients }): Router => {
  const router = Router();

  router.get('/key', async (_req, res) => {
    respond(res, 200, 'Push key', await services.message.pushKey({}));
  });

  router.post('/subscriptions', async (req, res) => {
    const subscription = parseWith(pushSubscriptionSchema, req.body);
    const sessionId = currentSessionId(res);
    const result = await services.message.pushSubscribe({
      userId: currentUserId(res),
      ...(sessionId && { sessionId }),
      subscription,
    });
    respond(res, 201, 'Subscribed', result);
  });

  router.delete('/subscriptions', async (req, res) => {
    const { endpoint } = parseWith(pushUnsubscribeBodySchema, req.body);
    await services.message.pushUnsubscribe({ userId: currentUserId(res), endpoint });
    respond(res, 200, 'Unsubscribed', {});
  });

  return router;
};
