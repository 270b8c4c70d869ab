import { createStore, get, set } from 'idb-keyval';
import { useSyncExternalStore } from 'react';

/**
 * Browser notifications, per account and per browser: whether they are on, and which chats are
 * muted. Kept in IndexedDB (database `veil-settings`, entry `notifications:<userId>`), not in
 * local storage, which logout clears entirely (spec section 2); docs/decisions.md explains why
 * this lives in the browser rather than on the server.
 */
export interface NotificationSettings {
  enabled: boolean;
  muted: string[];
}

const store = createStore('veil-settings', 'settings');
const entry = (userId: string) => `notifications:${userId}`;
const off: NotificationSettings = { enabled: false, muted: [] };

let loaded: { userId: string; settings: NotificationSettings } | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** The account's settings as last loaded (off until then). */
export const notificationSettings = (userId: string): NotificationSettings =>
  loaded?.userId === userId ? loaded.settings : off;

export const loadNotificationSettings = async (userId: string) => {
  const settings = (await get<NotificationSettings>(entry(userId), store)) ?? off;
  loaded = { userId, settings };
  changed();
};

export const saveNotificationSettings = async (userId: string, settings: NotificationSettings) => {
  loaded = { userId, settings };
  changed();
  await set(entry(userId), settings, store);
};

export const toggleMute = (userId: string, chatId: string) => {
  const settings = notificationSettings(userId);
  const muted = settings.muted.includes(chatId)
    ? settings.muted.filter((id) => id !== chatId)
    : [...settings.muted, chatId];
  return saveNotificationSettings(userId, { ...settings, muted });
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const useNotificationSettings = (userId: string) =>
  useSyncExternalStore(subscribe, () => notificationSettings(userId));
