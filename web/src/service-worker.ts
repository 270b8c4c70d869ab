import { callNotificationForPush, isCallPush } from './features/chats/calls/call-push-notification.ts';
import {
  chatUrl,
  newMessageText,
  notificationForPush,
  workerTexts,
} from './features/notifications/push/push-notification.ts';

/**
 * Veil's service worker: shows pushed messages, decrypted in the browser, while no Veil window
 * is visible, and opens the chat when one is clicked. Built on its own as /sw.js (vite.config.ts).
 *
 * The web app is typed with the DOM library, which has no service worker scope: the little of
 * it used here is declared below.
 */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface WindowClient {
  url: string;
  visibilityState: DocumentVisibilityState;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface WorkerScope {
  registration: ServiceWorkerRegistration;
  location: Location;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

const windows = () => worker.clients.matchAll({ type: 'window', includeUncontrolled: true });

const readJson = (event: PushEvent): unknown => {
  try {
    return event.data?.json();
  } catch {
    return null;
  }
};

/** A call that checks rings until it is answered or dismissed; one that does not shows nothing. */
const showCallPush = async (data: unknown) => {
  const call = await callNotificationForPush(data).catch((error: unknown) => {
    console.warn('Could not read a pushed call', error);
    return null;
  });
  if (!call) return;
  const texts = workerTexts().calls;
  await worker.registration.showNotification(call.callerName, {
    body: call.media === 'video' ? texts.pushedVideo : texts.pushedVoice,
    tag: `call:${call.callId}`,
    requireInteraction: true,
    data: { url: call.url },
    icon: '/favicon.svg',
  });
};

const showPush = async (event: PushEvent) => {
  // An open, visible Veil shows the message itself: a notification would repeat it.
  if ((await windows()).some((client) => client.visibilityState === 'visible')) return;
  const data = readJson(event);
  if (isCallPush(data)) return showCallPush(data);
  let shown;
  try {
    shown = await notificationForPush(data);
  } catch (error) {
    console.warn('Could not read a pushed message', error);
    shown = null;
  }
  if (!shown) return;
  // One notification per chat, replaced by the chat's newest message.
  await worker.registration.showNotification(shown.title, {
    body: shown.body || newMessageText(),
    tag: shown.chatId,
    data: { chatId: shown.chatId },
    icon: '/favicon.svg',
  });
};

const openChat = async (path: string) => {
  const url = new URL(path, worker.location.origin).href;
  const [open] = await windows();
  try {
    if (open) return void (await (await open.focus()).navigate(url));
  } catch {
    // A window this worker does not control cannot be navigated: open the chat in a new one.
  }
  await worker.clients.openWindow(url);
};

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));
worker.addEventListener('push', (event) => event.waitUntil(showPush(event)));
worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { chatId?: string; url?: string } | null;
  event.waitUntil(openChat(data?.url ?? (data?.chatId ? chatUrl(data.chatId) : '/all-chats')));
});
