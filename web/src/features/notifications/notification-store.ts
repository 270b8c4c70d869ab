import { createStore, get, set } from 'idb-keyval';

/**
 * Where the notification settings are kept: per account and per browser, in IndexedDB (database
 * `veil-settings`, entry `notifications:<userId>`), not in local storage, which logout clears
 * entirely (docs/web.md, "Storage"); docs/decisions.md explains why this lives in the browser rather
 * than on the server. The service worker reads them here too.
 */
export interface NotificationSettings {
  enabled: boolean;
  muted: string[];
}

const store = createStore('veil-settings', 'settings');
const entry = (userId: string) => `notifications:${userId}`;
export const notificationsOff: NotificationSettings = { enabled: false, muted: [] };

export const readNotificationSettings = async (userId: string): Promise<NotificationSettings> =>
  (await get<NotificationSettings>(entry(userId), store)) ?? notificationsOff;

export const writeNotificationSettings = (userId: string, settings: NotificationSettings) =>
  set(entry(userId), settings, store);
