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

/** Every contact's record for the account (what travels in the account state). */
export const readAllContactTrust = async (accountId: string): Promise<Record<string, ContactTrust>> =>
  (await get<Record<string, ContactTrust>>(entry(accountId), contactStore)) ?? {};

const changeListeners = new Set<(accountId: string) => void>();

/** Called after any contact's record of the account changed (the account state is saved again). */
export const onContactTrustChanged = (listener: (accountId: string) => void): (() => void) => {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
};

const sameTrust = (a: ContactTrust, b: ContactTrust) => JSON.stringify(a) === JSON.stringify(b);

/** Changes one contact's record in one transaction (two tabs cannot lose each other's change). */
export const updateContactTrust = async (
  accountId: string,
  contactId: string,
  change: (trust: ContactTrust) => ContactTrust,
): Promise<void> => {
  let changed = false;
  await update<Record<string, ContactTrust>>(
    entry(accountId),
    (all) => {
      const before = all?.[contactId] ?? unknown;
      const after = change(before);
      changed = !sameTrust(before, after);
      return { ...all, [contactId]: after };
    },
    contactStore,
  );
  if (changed) for (const listener of changeListeners) listener(accountId);
};

/**
 * Takes what another browser of the account trusted (a restore, a link): a contact this browser
 * knows nothing of yet gets that browser's record (its pinned head and verified keys); a record
 * this browser already has stays as it is.
 */
export const mergeContactTrust = (accountId: string, incoming: Record<string, ContactTrust>): Promise<void> =>
  update<Record<string, ContactTrust>>(
    entry(accountId),
    (all) => {
      const merged = { ...all };
      for (const [contactId, trust] of Object.entries(incoming)) {
        const known = merged[contactId];
        if (!known || (known.pinnedHash === null && known.verified === null)) merged[contactId] = trust;
      }
      return merged;
    },
    contactStore,
  );
