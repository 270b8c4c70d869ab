import type { PushSubscriptionBody } from '@veil/contracts';
import { api } from '../../../lib/api.ts';

export const pushApi = api.injectEndpoints({
  endpoints: (build) => ({
    pushKey: build.query<{ publicKey: string }, void>({ query: () => ({ url: 'push/key' }) }),
    subscribePush: build.mutation<{ subscriptionId: string }, PushSubscriptionBody>({
      query: (body) => ({ url: 'push/subscriptions', method: 'POST', body }),
    }),
    unsubscribePush: build.mutation<unknown, { endpoint: string }>({
      query: (body) => ({ url: 'push/subscriptions', method: 'DELETE', body }),
    }),
  }),
});
