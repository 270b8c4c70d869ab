import type { KeyLogEntry } from '@veil/crypto';
import { del, get, update } from 'idb-keyval';
import { contactStore } from './contact-trust-store.ts';

/**
 * Contacts' key logs as this browser last checked them (`key-logs.ts`), per account (IndexedDB,
 * database `veil-contacts`, entry `key-logs:<accountId>`), for the service worker: it has no
 * token and fetches nothing, so it checks a pushed message's signature against the log stored
 * here. A stored log can be older than the sender's newest key: a message signed with a key
 * made since fails, and the push shows no text, until a page checks the log again.
 */
const entry = (accountId: string) => `key-logs:${accountId}`;

export const readStoredKeyLog = async (
  accountId: string,
  userId: string,
): Promise<readonly KeyLogEntry[] | null> =>
  (await get<Record<string, KeyLogEntry[]>>(entry(accountId), contactStore))?.[userId] ?? null;

/** Keeps a log the page has just checked, in one transaction (two tabs cannot lose each other's). */
export const storeCheckedKeyLog = (
  accountId: string,
  userId: string,
  entries: readonly KeyLogEntry[],
): Promise<void> =>
  update<Record<string, KeyLogEntry[]>>(
    entry(accountId),
    (all) => ({ ...all, [userId]: [...entries] }),
    contactStore,
  );

/** Forgets every log stored for the account (logout, the account's keys removed from this browser). */
export const deleteStoredKeyLogs = (accountId: string): Promise<void> => del(entry(accountId), contactStore);
