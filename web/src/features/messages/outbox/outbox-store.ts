import { createStore, get, set } from 'idb-keyval';
import type { OutboxItem } from './outbox.slice.ts';

/**
 * The outbox kept in IndexedDB (database `veil-outbox`, entry `outbox:<userId>`), so that
 * messages written offline survive a reload or a closed tab and are sent from the account's
 * next page. It holds the text the user wrote until the server has stored the message, in this
 * browser only, beside the private key that reads the whole history anyway; docs/web.md.
 */
const store = createStore('veil-outbox', 'outbox');
const entry = (userId: string) => `outbox:${userId}`;

export const readOutbox = async (userId: string): Promise<OutboxItem[]> =>
  (await get<OutboxItem[]>(entry(userId), store)) ?? [];

export const writeOutbox = (userId: string, items: readonly OutboxItem[]): Promise<void> =>
  set(entry(userId), items, store);
