import type { SealedVault, WrappedVaultKey } from '@veil/crypto';
import { createStore, del, get, set } from 'idb-keyval';

/**
 * Something an account keeps in this browser and nobody else may read: encrypted under a vault
 * key that is wrapped with the account's RSA public key (`account-vault.ts`), one IndexedDB entry
 * per account. It goes with the account's keys from this browser.
 */
export interface StoredVault {
  key: WrappedVaultKey;
  sealed: SealedVault;
}

export interface VaultStore {
  read(userId: string): Promise<StoredVault | undefined>;
  write(userId: string, stored: StoredVault): Promise<void>;
  remove(userId: string): Promise<void>;
}

/** Entries `<entry>:<userId>` in the IndexedDB database `database`, object store `storeName`. */
const vaultStore = (database: string, storeName: string, entry: string): VaultStore => {
  const store = createStore(database, storeName);
  const key = (userId: string) => `${entry}:${userId}`;
  return {
    read: (userId) => get<StoredVault>(key(userId), store),
    write: (userId, stored) => set(key(userId), stored, store),
    remove: (userId) => del(key(userId), store),
  };
};

/** The message search index (docs/search.md). */
export const searchIndexStore = vaultStore('veil-search', 'index', 'index');

/** Unsent text per chat (docs/web.md, "Drafts"). */
export const draftStore = vaultStore('veil-drafts', 'drafts', 'drafts');
