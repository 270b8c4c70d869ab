import { createStore, get, update } from 'idb-keyval';

/**
 * What this browser remembers about each contact's keys, per account (IndexedDB, database
 * `veil-contacts`, entry `contact-keys:<accountId>`): the newest key-log entry it has seen, and
 * the keys the user verified by comparing safety numbers. Another account in the same browser has
 * its own record of every contact.
 */
export interface ContactTrust {
  /** Hash of the newest key-log entry seen for the contact; null before the first look. */
  pinnedHash: string | null;
  /** The contact's keys when the user marked their safety number verified. */
  verified: { encryptionKey: string; signingKey: string; at: string } | null;
  /** When a key change undid that verification (the key-log entry's time). */
  verificationLostAt: string | null;
}

/** The database of what this browser remembers about contacts (`key-log-store.ts` keeps its logs here too). */
export const contactStore = createStore('veil-contacts', 'contacts');
const entry = (accountId: string) => `contact-keys:${accountId}`;
const unknown: ContactTrust = { pinnedHash: null, verified: null, verificationLostAt: null };

export const readContactTrust = async (accountId: string, contactId: string): Promise<ContactTrust> =>
  (await get<Record<string, ContactTrust>>(entry(accountId), contactStore))?.[contactId] ?? unknown;

/** Changes one contact's record in one transaction (two tabs cannot lose each other's change). */
export const updateContactTrust = (
  accountId: string,
  contactId: string,
  change: (trust: ContactTrust) => ContactTrust,
): Promise<void> =>
  update<Record<string, ContactTrust>>(
    entry(accountId),
    (all) => ({ ...all, [contactId]: change(all?.[contactId] ?? unknown) }),
    contactStore,
  );
