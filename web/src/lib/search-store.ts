import type { SealedVault, WrappedVaultKey } from '@veil/crypto';
import { createStore, del, get, set } from 'idb-keyval';

/**
 * Where the message search index rests: IndexedDB database `veil-search`, entry `index:<userId>`,
 * the index encrypted under a vault key wrapped with the account's RSA public key
 * (`search-vault.ts`). docs/search.md.
 */
export interface StoredSearchIndex {
  key: WrappedVaultKey;
  sealed: SealedVault;
}

const store = createStore('veil-search', 'index');
const entry = (userId: string) => `index:${userId}`;

export const readSearchIndex = (userId: string): Promise<StoredSearchIndex | undefined> =>
  get<StoredSearchIndex>(entry(userId), store);

export const writeSearchIndex = (userId: string, stored: StoredSearchIndex): Promise<void> =>
  set(entry(userId), stored, store);

/** Forgets the account's index in this browser (with its keys). */
export const deleteSearchIndex = (userId: string): Promise<void> => del(entry(userId), store);
