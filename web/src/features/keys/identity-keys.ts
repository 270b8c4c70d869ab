import {
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  isSignedKeyLogEntry,
  nonExtractableSigningKey,
  sealPrivateKey,
  signKeyLogEntry,
  unsealPrivateKey,
  type SignedKeyLogEntry,
} from '@veil/crypto';
import { accountKeyRing, keepAccountKey } from './account-keys.ts';
import { addSigningKey, readSigningKeys } from './key-store.ts';
import { readMadeEntries, recordMadeEntries } from './made-entries-store.ts';
import { attestKeys, fetchKeyLog, publishSigningKey } from './public-key-api.ts';

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

/** A new account's first key log entry (`registered`), signed with its new signing key. */
export const registrationEntry = (bundle: {
  encryption: KeyPairOf;
  signing: KeyPairOf;
}): Promise<SignedKeyLogEntry> =>
  signKeyLogEntry(
    null,
    {
      encryptionKey: bundle.encryption.publicKey,
      signingKey: bundle.signing.publicKey,
      reason: 'registered',
    },
    bundle.signing.privateKey,
  );

/**
 * The `reset` entry that follows the account's newest one and publishes a new bundle, signed
 * with the new signing key (the old one is lost: that is why the account resets).
 */
export const resetEntry = async (
  userId: string,
  bundle: { encryption: KeyPairOf; signing: KeyPairOf },
): Promise<SignedKeyLogEntry> => {
  const { entries } = await fetchKeyLog(userId);
  return signKeyLogEntry(
    entries.at(-1) ?? null,
    { encryptionKey: bundle.encryption.publicKey, signingKey: bundle.signing.publicKey, reason: 'reset' },
    bundle.signing.privateKey,
  );
};

/**
 * Gives the account's key log a signed newest entry, in the first browser that holds its current
 * keys, at a session start (a login, a restore, a link):
 * - an account without a signing key (registered before them, or by a client without them) gets
 *   one: made and kept here, then published by a `signing-key-added` entry signed with it;
 * - an account whose newest entry is unsigned (made by the server before entries were signed)
 *   gets an `attested` entry, the same keys signed by its current signing key.
 * Contacts' browsers refuse a log whose newest entry is unsigned ("not signed yet") until then.
 * Another browser racing this one wins or loses on the server (one entry extends the log); the
 * loser's kept signing key stays unused. Resolves whether this browser appended an entry.
 */
export const ensureSignedKeyLog = async (userId: string): Promise<boolean> => {
  const { entries, current } = await fetchKeyLog(userId);
  const head = entries.at(-1) ?? null;
  if (head && isSignedKeyLogEntry(head)) return false;
  const held = await accountKeyRing(userId);
  if (!held.some((key) => key.publicKey === current.encryptionKey)) return false;
  // The entries from before this browser kept a record (the server's unsigned ones) count as
  // known, as they would at the record's first run (`own-log-monitor.ts`).
  if (!(await readMadeEntries(userId)))
    await recordMadeEntries(
      userId,
      entries.map((entry) => entry.hash),
    );
  if (!current.signingKey) {
    const pair = await generateSigningKeyPair();
    const signing = {
      privateKey: pair.privateKey,
      publicKey: await exportPublicKeySpkiBase64(pair.publicKey),
    };
    const entry = await signKeyLogEntry(
      head,
      { encryptionKey: current.encryptionKey, signingKey: signing.publicKey, reason: 'signing-key-added' },
      signing.privateKey,
    );
    await keepSigningKey(userId, signing);
    // Recorded before it is sent: once the server has it, this browser must know it made it.
    await recordMadeEntries(userId, [entry.hash]);
    await publishSigningKey(entry);
    return true;
  }
  const signer = (await readSigningKeys(userId)).find((key) => key.publicKey === current.signingKey);
  // An attestation follows an entry; an empty log with a signing key is nothing a browser made.
  if (!signer || !head) return false;
  const entry = await signKeyLogEntry(
    head,
    { encryptionKey: current.encryptionKey, signingKey: current.signingKey, reason: 'attested' },
    signer.privateKey,
  );
  await recordMadeEntries(userId, [entry.hash]);
  await attestKeys(entry);
  return true;
};
