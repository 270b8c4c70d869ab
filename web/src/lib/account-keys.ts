import { importPrivateKeyJwk, nonExtractablePrivateKey, privateJwkMatchesPublicKey } from '@veil/crypto';
import {
  addAccountKey,
  deleteAccountKeys,
  moveLegacyKey,
  readAccountKeys,
  readLegacyKey,
} from './key-store.ts';
import { fetchPublishedKey } from './public-key-api.ts';

/**
 * Which private keys an account reads with in this browser. Storage is `key-store.ts`; all
 * cryptography is @veil/crypto.
 */
export const missingPrivateKeyText = 'Private key not found in IndexedDB';

const loaded = new Map<string, Promise<CryptoKey[]>>();

/**
 * Keeps the key pair made at registration: the private key is stored as a non-extractable copy
 * (the caller's extractable original is the one moment a backup could export it).
 */
export const keepNewAccountKey = async (
  userId: string,
  privateKey: CryptoKey,
  publicKey: string,
): Promise<void> => {
  await addAccountKey(userId, {
    privateKey: await nonExtractablePrivateKey(privateKey),
    publicKey,
    storedAt: Date.now(),
  });
  loaded.delete(userId);
};

const isJwk = (value: unknown): value is JsonWebKey => typeof value === 'object' && value !== null;

/**
 * An earlier version's browser-wide key moves to this account only if it is this account's:
 * its public part matches the published key. Another account's stays where it is until that
 * account logs in here.
 */
const moveLegacyKeyIfOurs = async (userId: string): Promise<void> => {
  const legacy = await readLegacyKey();
  if (!isJwk(legacy)) return;
  const published = await fetchPublishedKey(userId);
  if (!(await privateJwkMatchesPublicKey(legacy, published))) return;
  const privateKey = await importPrivateKeyJwk(legacy);
  await moveLegacyKey(userId, legacy, { privateKey, publicKey: published, storedAt: Date.now() });
};

const load = async (userId: string): Promise<CryptoKey[]> => {
  let keys = await readAccountKeys(userId);
  if (keys.length === 0) {
    await moveLegacyKeyIfOurs(userId);
    // Read again whether or not this call moved it: another tab may have done so meanwhile.
    keys = await readAccountKeys(userId);
  }
  return [...keys].sort((a, b) => b.storedAt - a.storedAt).map((key) => key.privateKey);
};

/**
 * The account's private keys in this browser, newest first; empty when it has none here. Read
 * once per session (the first read moves a matching legacy key); a failed read is retried next time.
 */
export const accountKeys = (userId: string): Promise<CryptoKey[]> => {
  const cached = loaded.get(userId);
  if (cached) return cached;
  const keys = load(userId).catch((error: unknown) => {
    console.error('Could not read the private keys', error);
    if (loaded.get(userId) === keys) loaded.delete(userId);
    return [];
  });
  loaded.set(userId, keys);
  return keys;
};

/** Deletes the account's keys from this browser (a legacy key of this account moves first, so it goes too). */
export const removeAccountKeys = async (userId: string): Promise<void> => {
  await accountKeys(userId);
  await deleteAccountKeys(userId);
  loaded.delete(userId);
};

/** Drops the keys held in memory (logout); the stored ones stay. */
export const forgetLoadedKeys = (): void => loaded.clear();
