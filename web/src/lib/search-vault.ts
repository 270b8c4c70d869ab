import { openAccountVault, type AccountVault } from './account-vault.ts';
import { searchIndexStore } from './vault-store.ts';

export type SearchVault = AccountVault;

/** The account's message search index in this browser, encrypted (docs/search.md). */
export const openSearchVault = (userId: string): Promise<SearchVault | null> =>
  openAccountVault(userId, searchIndexStore);
