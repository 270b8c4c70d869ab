import { useSyncExternalStore } from 'react';
import {
  notificationsOff as off,
  readNotificationSettings,
  writeNotificationSettings,
  type NotificationSettings,
} from './notification-store.ts';

export type { NotificationSettings } from './notification-store.ts';

/**
 * Browser notifications, per account and per browser: whether they are on, and which chats are
 * muted (kept by notification-store.ts), shared by the screens that show and change them.
 */

let loaded: { userId: string; settings: NotificationSettings } | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** The account's settings as last loaded (off until then). */
export const notificationSettings = (userId: string): NotificationSettings =>
  loaded?.userId === userId ? loaded.settings : off;

export const loadNotificationSettings = async (userId: string) => {
  const settings = await readNotificationSettings(userId);
  loaded = { userId, settings };
  changed();
};

export const saveNotificationSettings = async (userId: string, settings: NotificationSettings) => {
  loaded = { userId, settings };
  changed();
  await writeNotificationSettings(userId, settings);
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
