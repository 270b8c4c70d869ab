import { createVaultKey, openVault, openVaultKey, sealVault } from '@veil/crypto';
import { accountKeyRing } from './account-keys.ts';
import type { VaultStore } from './vault-store.ts';

export interface AccountVault {
  /** The saved text, or null when there is none this browser can open (start afresh). */
  saved: string | null;
  save(text: string): Promise<void>;
}

/**
 * Opens one of the account's vaults in this browser: the stored vault key is unwrapped with the
 * account's private keys held here; without one that fits (none stored yet, or a key reset since)
 * a new vault key is wrapped for the newest key. Null without any private key here.
 */
export const openAccountVault = async (userId: string, store: VaultStore): Promise<AccountVault | null> => {
  const ring = await accountKeyRing(userId);
  if (!ring.length) return null;
  const stored = await store.read(userId).catch(() => undefined);
  const privateKeys = ring.map((held) => held.privateKey);
  const opened = stored ? await openVaultKey(stored.key, privateKeys) : null;
  let saved: string | null = null;
  if (stored && opened) saved = await openVault(opened, stored.sealed).catch(() => null);
  const vault =
    opened && stored ? { key: opened, wrapped: stored.key } : await createVaultKey(ring[0]!.publicKey);
  return {
    saved,
    async save(text) {
      await store.write(userId, { key: vault.wrapped, sealed: await sealVault(vault.key, text) });
    },
  };
};
