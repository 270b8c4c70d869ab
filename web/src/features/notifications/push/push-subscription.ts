import type { PushSubscriptionBody } from '@veil/contracts';
import type { AppDispatch } from '../../../app/hooks.ts';
import { pushApi } from './push.api.ts';

/** The built worker, or in development the source, which the dev server serves as a module. */
const workerUrl = import.meta.env.DEV ? '/src/service-worker.ts' : '/sw.js';

export const pushSupported = () =>
  'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const registerWorker = async () => {
  await navigator.serviceWorker.register(workerUrl, {
    scope: '/',
    type: import.meta.env.DEV ? 'module' : 'classic',
  });
  return navigator.serviceWorker.ready;
};

/**
 * Subscribes this browser to pushes for the signed-in user: the service worker registered, a
 * push subscription made with the server's VAPID key (or the one the browser has), and that
 * subscription given to the server for this login. Throws when the browser or the server
 * cannot push; notifications then come only from an open tab.
 */
export const subscribeToPush = async (dispatch: AppDispatch): Promise<void> => {
  if (!pushSupported()) throw new Error('This browser cannot receive pushes');
  const registration = await registerWorker();
  const { publicKey } = await dispatch(
    pushApi.endpoints.pushKey.initiate(undefined, { subscribe: false }),
  ).unwrap();
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  await dispatch(
    pushApi.endpoints.subscribePush.initiate(subscription.toJSON() as PushSubscriptionBody),
  ).unwrap();
};

/**
 * Ends this browser's push subscription (notifications turned off, logout): the server is told
 * when a `dispatch` is given (a logout ends the session, which ends its subscriptions anyway),
 * and the push service refuses any push still on its way.
 */
export const unsubscribeFromPush = async (dispatch?: AppDispatch): Promise<void> => {
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  if (dispatch)
    await dispatch(pushApi.endpoints.unsubscribePush.initiate({ endpoint: subscription.endpoint }))
      .unwrap()
      .catch((error: unknown) => console.warn('The server kept the push subscription', error));
  await subscription.unsubscribe();
};
