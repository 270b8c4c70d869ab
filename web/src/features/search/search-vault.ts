import { openAccountVault, type AccountVault, searchIndexStore } from '../keys/index.ts';

export type SearchVault = AccountVault;

/** The account's message search index in this browser, encrypted (docs/search.md). */
export const openSearchVault = (userId: string): Promise<SearchVault | null> =>
  openAccountVault(userId, searchIndexStore);
