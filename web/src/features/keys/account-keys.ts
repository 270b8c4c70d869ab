import { forgetKeyLogs, keyLogOf } from './key-logs.ts';
import { fetchKeyLog } from './public-key-api.ts';
import {
  exportPrivateKeyJwk,
  importPrivateKeyJwk,
  importSigningPrivateKeyJwk,
  nonExtractablePrivateKey,
  privateJwkMatchesPublicKey,
  sealPrivateKey,
  sealPrivateKeyJwk,
  signingJwkMatchesPublicKey,
  unsealPrivateKey,
  type SealedKeyUse,
} from '@veil/crypto';
import {
  addAccountKey,
  addSigningKey,
  deleteAccountKeys,
  moveLegacyKey,
  readAccountKeys,
  readLegacyKey,
  readSigningKeys,
  type StoredPrivateKey,
} from './key-store.ts';
import { KeyBundleError, parseKeyBundle, serializeKeyBundle, type BundledKey } from './key-bundle.ts';
import { deleteStoredKeyLogs } from './key-log-store.ts';
import { deleteMadeEntries } from './made-entries-store.ts';
import { draftStore, searchIndexStore } from './vault-store.ts';
import type { PublishedKey } from './read-state.ts';

/**
 * Which private keys an account reads with in this browser. Storage is `key-store.ts`; all
 * cryptography is @veil/crypto.
 */

const loaded = new Map<string, Promise<StoredPrivateKey[]>>();
let published: { userId: string; key: Promise<PublishedKey | null> } | null = null;

/**
 * Keeps a private key this browser has in extractable form (just generated at registration, or
 * just opened from a backup): stored as a non-extractable copy for use and a sealed copy for one
 * more export later. The caller drops the extractable original.
 */
export const keepAccountKey = async (
  userId: string,
  privateKey: CryptoKey,
  publicKey: string,
): Promise<void> => {
  const [usable, sealed] = await Promise.all([
    nonExtractablePrivateKey(privateKey),
    sealPrivateKey(privateKey),
  ]);
  await addAccountKey(userId, { privateKey: usable, publicKey, storedAt: Date.now(), sealed });
  loaded.delete(userId);
};

const isJwk = (value: unknown): value is JsonWebKey => typeof value === 'object' && value !== null;

/**
 * An earlier version's browser-wide key moves to this account only if it is this account's:
 * its public part matches the encryption key at the head of the account's key log as served.
 * Not the checked log: an account from before signed entries has an unsigned log until a
 * browser holding its key signs it, which needs this very key. Nothing is sealed for the key
 * compared here; the private key proves its own public part, so a served key that is not the
 * account's only leaves the legacy key where it is. Another account's stays there until that
 * account logs in here.
 */
const moveLegacyKeyIfOurs = async (userId: string): Promise<void> => {
  const legacy = await readLegacyKey();
  if (!isJwk(legacy)) return;
  const published = (await fetchKeyLog(userId)).entries.at(-1)?.encryptionKey;
  if (!published) return;
  if (!(await privateJwkMatchesPublicKey(legacy, published))) return;
  const [privateKey, sealed] = await Promise.all([importPrivateKeyJwk(legacy), sealPrivateKeyJwk(legacy)]);
  await moveLegacyKey(userId, legacy, { privateKey, publicKey: published, storedAt: Date.now(), sealed });
};

const load = async (userId: string): Promise<StoredPrivateKey[]> => {
  let keys = await readAccountKeys(userId);
  if (keys.length === 0) {
    await moveLegacyKeyIfOurs(userId);
    // Read again whether or not this call moved it: another tab may have done so meanwhile.
    keys = await readAccountKeys(userId);
  }
  return [...keys].sort((a, b) => b.storedAt - a.storedAt);
};

/**
 * The account's keys in this browser as stored, newest first; empty when it has none here. Read
 * once per session (the first read moves a matching legacy key); a failed read is retried next time.
 */
export const accountKeyRing = (userId: string): Promise<StoredPrivateKey[]> => {
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

/** The account's private keys in this browser, newest first; empty when it has none here. */
export const accountKeys = async (userId: string): Promise<CryptoKey[]> =>
  (await accountKeyRing(userId)).map((key) => key.privateKey);

/**
 * The account's key with this public key, extractable, for one export (a backup); null when this
 * browser does not hold it or holds it only in the non-extractable form of earlier versions.
 */
export const exportableAccountKey = async (userId: string, publicKey: string): Promise<CryptoKey | null> => {
  const stored = (await accountKeyRing(userId)).find((key) => key.publicKey === publicKey);
  return stored?.sealed ? unsealPrivateKey(stored.sealed) : null;
};

/**
 * The account's private keys this browser can export (those with a sealed copy), as the bundle
 * another browser of the account stores (`key-bundle.ts`); null when it can export none. The
 * extractable forms live only inside this call.
 */
export const exportAccountKeyBundle = async (userId: string, state: unknown): Promise<string | null> => {
  const exported = (stored: StoredPrivateKey[], use: SealedKeyUse): Promise<BundledKey[]> =>
    Promise.all(
      stored
        .filter((key) => key.sealed)
        .map(async (key) => ({
          publicKey: key.publicKey,
          privateKey: await exportPrivateKeyJwk(await unsealPrivateKey(key.sealed!, use)),
        })),
    );
  const keys = await exported(await accountKeyRing(userId), 'encryption');
  const signingKeys = await exported(await readSigningKeys(userId), 'signing');
  return keys.length > 0 ? serializeKeyBundle(keys, signingKeys, state) : null;
};

/** Whether this browser holds keys of the account it can export (to link another browser). */
export const canExportAccountKeys = async (userId: string): Promise<boolean> =>
  (await accountKeyRing(userId)).some((key) => key.sealed);

/**
 * Keeps every key of a bundle from another browser of the account, as a restore keeps one:
 * non-extractable, with a sealed copy. Each private key must match the public key it came with.
 * Resolves the account state the bundle carried (unread; undefined in a version 1 bundle).
 */
export const keepAccountKeyBundle = async (userId: string, text: string): Promise<unknown> => {
  const { keys, signingKeys = [], state } = parseKeyBundle(text);
  for (const key of keys)
    if (!(await privateJwkMatchesPublicKey(key.privateKey, key.publicKey)))
      throw new KeyBundleError('A key that arrived does not match its public key');
  for (const key of signingKeys)
    if (!(await signingJwkMatchesPublicKey(key.privateKey, key.publicKey)))
      throw new KeyBundleError('A key that arrived does not match its public key');
  const storedAt = Date.now();
  // Oldest first, so the newest key is also the newest stored.
  for (const [index, key] of [...keys].reverse().entries()) {
    const [privateKey, sealed] = await Promise.all([
      importPrivateKeyJwk(key.privateKey),
      sealPrivateKeyJwk(key.privateKey),
    ]);
    await addAccountKey(userId, { privateKey, publicKey: key.publicKey, storedAt: storedAt + index, sealed });
  }
  for (const [index, key] of [...signingKeys].reverse().entries()) {
    const [privateKey, sealed] = await Promise.all([
      importSigningPrivateKeyJwk(key.privateKey, false),
      importSigningPrivateKeyJwk(key.privateKey, true).then(sealPrivateKey),
    ]);
    await addSigningKey(userId, { privateKey, publicKey: key.publicKey, storedAt: storedAt + index, sealed });
  }
  loaded.delete(userId);
  return state;
};

/**
 * The logged-in account's current public key and when it was published, as its own checked key
 * log says (the head's encryption key, from the first entry that names it), read once per
 * session when a message does not open; null when the log cannot be fetched or does not check
 * out (asked again next time).
 */
export const publishedAccountKey = (userId: string): Promise<PublishedKey | null> => {
  if (published?.userId === userId) return published.key;
  const key = keyLogOf(userId, userId).then((log) => {
    const head = log.ok ? log.entries.at(-1) : undefined;
    if (!log.ok || !head) {
      if (published?.key === key) published = null;
      return null;
    }
    // A reset publishes a new encryption key; a later signing-key entry keeps it.
    let since = log.entries.length - 1;
    while (since > 0 && log.entries[since - 1]!.encryptionKey === head.encryptionKey) since -= 1;
    return { publicKey: head.encryptionKey, publishedAt: log.entries[since]!.at };
  });
  published = { userId, key };
  return key;
};

/** Deletes the account's keys from this browser (a legacy key of this account moves first, so it goes too). */
export const removeAccountKeys = async (userId: string): Promise<void> => {
  await accountKeyRing(userId);
  // The search index and the drafts are of no use without the keys that open them: they go with
  // them, and so do the key logs kept for checking pushes and the record of the key-log entries made.
  await Promise.all([
    deleteAccountKeys(userId),
    searchIndexStore.remove(userId),
    draftStore.remove(userId),
    deleteStoredKeyLogs(userId),
    deleteMadeEntries(userId),
  ]);
  loaded.delete(userId);
};

/** Drops the keys held in memory (logout); the stored ones stay. */
export const forgetLoadedKeys = (): void => {
  loaded.clear();
  forgetKeyLogs();
  published = null;
};
