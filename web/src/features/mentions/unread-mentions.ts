import { createStore, get, set } from 'idb-keyval';
import { useSyncExternalStore } from 'react';

/**
 * The chats with an unread message that mentions the account, for the chat list's "@" badge.
 * Only this browser can know it (the server never sees who a message mentions), so it is kept
 * here: in memory, and in IndexedDB (database `veil-settings`, entry `mentions:<userId>`, chat ids
 * only) so that a reload keeps it. A chat leaves it when it is read.
 */
const store = createStore('veil-settings', 'settings');
const entry = (userId: string) => `mentions:${userId}`;

let loaded: { userId: string; chats: ReadonlySet<string> } = { userId: '', chats: new Set() };
const listeners = new Set<() => void>();

const keep = (userId: string, chats: ReadonlySet<string>) => {
  loaded = { userId, chats };
  listeners.forEach((listener) => listener());
  void set(entry(userId), [...chats], store).catch(() => undefined);
};

/** Reads the account's marks once per page (the session's start). */
export const loadUnreadMentions = async (userId: string) => {
  const stored = (await get<string[]>(entry(userId), store).catch(() => undefined)) ?? [];
  // Marks made while it was read stay with them.
  const now = loaded.userId === userId ? loaded.chats : new Set<string>();
  loaded = { userId, chats: new Set([...stored, ...now]) };
  listeners.forEach((listener) => listener());
};

export const markMentioned = (userId: string, chatId: string) => {
  const chats = loaded.userId === userId ? loaded.chats : new Set<string>();
  if (!chats.has(chatId)) keep(userId, new Set([...chats, chatId]));
};

export const clearMentioned = (userId: string, chatId: string) => {
  if (loaded.userId !== userId || !loaded.chats.has(chatId)) return;
  keep(userId, new Set([...loaded.chats].filter((id) => id !== chatId)));
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Whether `chatId` has an unread mention of the account. */
export const useMentioned = (userId: string, chatId: string) =>
  useSyncExternalStore(subscribe, () => loaded.userId === userId && loaded.chats.has(chatId));
