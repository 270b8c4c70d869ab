import type { SealedPrivateKey } from '@veil/crypto';
import { createStore, delMany, get, promisifyRequest, update } from 'idb-keyval';

/**
 * This browser's private keys, per account, in IndexedDB: idb-keyval's default database
 * `keyval-store`, object store `keyval`, entry `private-keys:<userId>`. An entry is a list that
 * is only ever added to, so saving a key never replaces one the account already has (a browser
 * may hold an account's older keys). Keys are non-extractable CryptoKeys, which IndexedDB keeps
 * as they are (structured clone); their bytes cannot be read back out.
 *
 * Earlier versions kept one JWK for the whole browser under `my-private-key` in the same store;
 * sharing the store lets that key move to its account in one transaction.
 */
export interface StoredPrivateKey {
  privateKey: CryptoKey;
  /** The matching public key (base64 SPKI): tells this key from the account's others. */
  publicKey: string;
  /** When this browser stored it (ms since the epoch). */
  storedAt: number;
  /**
   * The same key sealed under a non-extractable key beside it, so that it can be exported once
   * more: for a backup made after registration (and for linking another browser). Absent on keys
   * stored before backups existed. docs/crypto.md, "Private keys at rest", weighs the cost.
   */
  sealed?: SealedPrivateKey;
}

const legacyKeyEntry = 'my-private-key';
const accountEntry = (userId: string) => `private-keys:${userId}`;
/** The account's identity signing keys (ECDSA), kept the same way in an entry of their own. */
const signingEntry = (userId: string) => `signing-keys:${userId}`;
const store = createStore('keyval-store', 'keyval');

/**
 * The list with `key` added, unless the same key (same public key) is already in it: then the
 * stored copy stays, and only gains the sealed copy if it had none.
 */
export const withKey = (
  keys: readonly StoredPrivateKey[] | undefined,
  key: StoredPrivateKey,
): StoredPrivateKey[] => {
  if (!keys?.some((kept) => kept.publicKey === key.publicKey)) return [...(keys ?? []), key];
  return keys.map((kept) =>
    kept.publicKey === key.publicKey && !kept.sealed && key.sealed ? { ...kept, sealed: key.sealed } : kept,
  );
};

export const readAccountKeys = async (userId: string): Promise<StoredPrivateKey[]> =>
  (await get<StoredPrivateKey[]>(accountEntry(userId), store)) ?? [];

export const addAccountKey = (userId: string, key: StoredPrivateKey): Promise<void> =>
  update<StoredPrivateKey[]>(accountEntry(userId), (keys) => withKey(keys, key), store);

export const readSigningKeys = async (userId: string): Promise<StoredPrivateKey[]> =>
  (await get<StoredPrivateKey[]>(signingEntry(userId), store)) ?? [];

export const addSigningKey = (userId: string, key: StoredPrivateKey): Promise<void> =>
  update<StoredPrivateKey[]>(signingEntry(userId), (keys) => withKey(keys, key), store);

export const deleteAccountKeys = (userId: string): Promise<void> =>
  delMany([accountEntry(userId), signingEntry(userId)], store);

/** What an earlier version stored for the whole browser: a private JWK, or undefined. */
export const readLegacyKey = (): Promise<unknown> => get(legacyKeyEntry, store);

/**
 * Adds `key` to the account and deletes the legacy entry, in one transaction, provided the entry
 * still holds `legacyJwk` (another tab may have moved it meanwhile). Resolves whether it moved.
 */
export const moveLegacyKey = (userId: string, legacyJwk: JsonWebKey, key: StoredPrivateKey) =>
  store('readwrite', (objects) => {
    const committed = promisifyRequest(objects.transaction);
    const legacy = objects.get(legacyKeyEntry);
    const existing = objects.get(accountEntry(userId));
    let moved = false;
    // Requests complete in order, so both results are in when the second succeeds.
    existing.onsuccess = () => {
      if ((legacy.result as JsonWebKey | undefined)?.n !== legacyJwk.n) return;
      objects.put(withKey(existing.result as StoredPrivateKey[] | undefined, key), accountEntry(userId));
      objects.delete(legacyKeyEntry);
      moved = true;
    };
    return committed.then(() => moved);
  });
