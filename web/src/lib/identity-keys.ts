import {
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  nonExtractableSigningKey,
  sealPrivateKey,
  unsealPrivateKey,
} from '@veil/crypto';
import { accountKeyRing, keepAccountKey } from './account-keys.ts';
import { addSigningKey, readSigningKeys } from './key-store.ts';
import { fetchKeyStatus, publishSigningKey } from './public-key-api.ts';

/**
 * The account's key bundle in this browser: the encryption key (`account-keys.ts`) and the
 * identity signing key (ECDSA P-256), stored the same way: a non-extractable copy to use and a
 * sealed copy for one more export (a backup).
 */
export interface KeyPairOf {
  /** Extractable: freshly made or just opened from a backup. */
  privateKey: CryptoKey;
  /** base64 SPKI */
  publicKey: string;
}

export interface KeyBundle {
  encryption: KeyPairOf;
  signing: KeyPairOf | null;
}

/** A new bundle (registration, a key reset): both keys extractable, for a backup, then kept. */
export const generateKeyBundle = async (): Promise<{ encryption: KeyPairOf; signing: KeyPairOf }> => {
  const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
  return {
    encryption: {
      privateKey: encryption.privateKey,
      publicKey: await exportPublicKeySpkiBase64(encryption.publicKey),
    },
    signing: {
      privateKey: signing.privateKey,
      publicKey: await exportPublicKeySpkiBase64(signing.publicKey),
    },
  };
};

export const keepSigningKey = async (userId: string, key: KeyPairOf): Promise<void> => {
  const [usable, sealed] = await Promise.all([
    nonExtractableSigningKey(key.privateKey),
    sealPrivateKey(key.privateKey),
  ]);
  await addSigningKey(userId, { privateKey: usable, publicKey: key.publicKey, storedAt: Date.now(), sealed });
};

/** Keeps every key of a bundle for the account; the caller drops the extractable originals. */
export const keepKeyBundle = async (userId: string, bundle: KeyBundle): Promise<void> => {
  await keepAccountKey(userId, bundle.encryption.privateKey, bundle.encryption.publicKey);
  if (bundle.signing) await keepSigningKey(userId, bundle.signing);
};

/** The account's signing key with this public key, extractable, for one backup; null if not held here. */
export const exportableSigningKey = async (userId: string, publicKey: string): Promise<KeyPairOf | null> => {
  const stored = (await readSigningKeys(userId)).find((key) => key.publicKey === publicKey);
  return stored?.sealed ? { privateKey: await unsealPrivateKey(stored.sealed, 'signing'), publicKey } : null;
};

/**
 * An account registered before signing keys gets one in the first browser that holds its
 * current encryption key: made here, kept here, then published (a `signing-key-added` entry of
 * its key log). If another browser published one first, the server refuses this one and the
 * kept copy stays unused. Resolves whether this browser published one.
 */
export const ensureSigningKey = async (userId: string): Promise<boolean> => {
  const status = await fetchKeyStatus();
  if (status.signingKey) return false;
  const held = await accountKeyRing(userId);
  if (!held.some((key) => key.publicKey === status.publicKey)) return false;
  const pair = await generateSigningKeyPair();
  const signing = { privateKey: pair.privateKey, publicKey: await exportPublicKeySpkiBase64(pair.publicKey) };
  await keepSigningKey(userId, signing);
  await publishSigningKey(signing.publicKey);
  return true;
};
