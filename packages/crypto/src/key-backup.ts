import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';
import { importParams, privateJwkMatchesPublicKey } from './keys.ts';
import { recoveryKeyBytesOf } from './recovery-key.ts';

/**
 * The encrypted backup of an account's private key, made and opened in the browser only. A
 * random data key (AES-GCM 256) encrypts the PKCS#8 private key; the data key is wrapped once per
 * secret: always under the recovery key (HKDF-SHA256: it has 160 bits of entropy, so no
 * stretching is needed), and, if the user sets one, under a passphrase (PBKDF2-SHA256 with many
 * iterations: a passphrase can be guessed, each guess must be expensive). The server stores the
 * result as it is and can open none of it. Every ciphertext is bound (AES-GCM additional data) to
 * the format version, its role and the public key the backup claims to hold, so parts cannot be
 * swapped between backups or roles.
 */
export const keyBackupVersion = 1;

/**
 * PBKDF2-SHA256 iterations for a new passphrase: tuned to 0.5-1 s in Chromium on the two-core
 * machine the benchmarks run on (deploy/bench/src/key-backup-bench.ts: 0.6-0.75 s there), over six
 * times OWASP's 600,000. Stored in each backup, so a later change leaves older backups readable.
 */
export const passphraseIterations = 4_000_000;
/** Bounds accepted when reading: OWASP's floor, and a ceiling so a planted backup cannot hang the page. */
export const minPassphraseIterations = 600_000;
export const maxPassphraseIterations = 10_000_000;

export interface SealedBytes {
  /** 12 random bytes, base64. */
  iv: string;
  ciphertext: string;
}

export interface RecoveryKeyUnlock {
  kind: 'recovery-key';
  kdf: { name: 'HKDF-SHA256'; salt: string };
  iv: string;
  /** The data key, AES-GCM-encrypted under the key derived from the recovery key. */
  wrappedKey: string;
}

export interface PassphraseUnlock {
  kind: 'passphrase';
  kdf: { name: 'PBKDF2-SHA256'; salt: string; iterations: number };
  iv: string;
  wrappedKey: string;
}

export type BackupUnlock = RecoveryKeyUnlock | PassphraseUnlock;

export interface KeyBackup {
  version: typeof keyBackupVersion;
  /** The public key (base64 SPKI) of the private key inside: says which key this is. */
  publicKey: string;
  /** The PKCS#8 private key, encrypted under the data key. */
  privateKey: SealedBytes;
  /** Exactly one recovery-key unlock, at most one passphrase unlock. */
  unlocks: BackupUnlock[];
}

export type BackupSecret = { recoveryKey: string } | { passphrase: string };

const utf8 = (text: string) => new TextEncoder().encode(text);
const random = (length: number) => crypto.getRandomValues(new Uint8Array(length));
const aad = (role: string, publicKey: string) =>
  utf8(`veil key backup ${keyBackupVersion}|${role}|${publicKey}`);
const gcm = (iv: Uint8Array<ArrayBuffer>, additionalData: Uint8Array<ArrayBuffer>): AesGcmParams => ({
  name: 'AES-GCM',
  iv,
  additionalData,
});
const aes256 = { name: 'AES-GCM', length: 256 } as const;
const wrapping: KeyUsage[] = ['wrapKey', 'unwrapKey'];

const recoveryKeyKek = async (recoveryKey: string, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> => {
  const bytes = recoveryKeyBytesOf(recoveryKey);
  if (!bytes)
    throw new VeilCryptoError(
      'ERR_RECOVERY_KEY_FORMAT',
      'A recovery key is 32 letters and digits (8 groups of 4)',
    );
  const base = await crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: utf8(`veil key backup ${keyBackupVersion}|recovery key`) },
    base,
    aes256,
    false,
    wrapping,
  );
};

const passphraseKek = async (
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> => {
  // NFC: the same passphrase typed on another keyboard or system gives the same bytes.
  const base = await crypto.subtle.importKey('raw', utf8(passphrase.normalize('NFC')), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    base,
    aes256,
    false,
    wrapping,
  );
};

const wrapDataKey = async (dataKey: CryptoKey, kek: CryptoKey, role: string, publicKey: string) => {
  const iv = random(12);
  const wrapped = await crypto.subtle.wrapKey('raw', dataKey, kek, gcm(iv, aad(role, publicKey)));
  return { iv: bytesToBase64(iv), wrappedKey: bytesToBase64(new Uint8Array(wrapped)) };
};

const recoveryKeyUnlock = async (
  dataKey: CryptoKey,
  recoveryKey: string,
  publicKey: string,
): Promise<RecoveryKeyUnlock> => {
  const salt = random(16);
  const kek = await recoveryKeyKek(recoveryKey, salt);
  return {
    kind: 'recovery-key',
    kdf: { name: 'HKDF-SHA256', salt: bytesToBase64(salt) },
    ...(await wrapDataKey(dataKey, kek, 'recovery-key', publicKey)),
  };
};

const passphraseUnlock = async (
  dataKey: CryptoKey,
  passphrase: string,
  publicKey: string,
): Promise<PassphraseUnlock> => {
  const salt = random(16);
  const kek = await passphraseKek(passphrase, salt, passphraseIterations);
  return {
    kind: 'passphrase',
    kdf: { name: 'PBKDF2-SHA256', salt: bytesToBase64(salt), iterations: passphraseIterations },
    ...(await wrapDataKey(dataKey, kek, 'passphrase', publicKey)),
  };
};

/**
 * A new backup of `privateKey` (which must be extractable: the freshly generated key, or one
 * unsealed for this purpose) under the recovery key and, if given, a passphrase.
 */
export const createKeyBackup = async (input: {
  privateKey: CryptoKey;
  publicKey: string;
  recoveryKey: string;
  passphrase?: string | null;
}): Promise<KeyBackup> => {
  const { privateKey, publicKey, recoveryKey, passphrase } = input;
  const dataKey = await crypto.subtle.generateKey(aes256, true, wrapping);
  const iv = random(12);
  const ciphertext = await crypto.subtle.wrapKey(
    'pkcs8',
    privateKey,
    dataKey,
    gcm(iv, aad('private-key', publicKey)),
  );
  const unlocks: BackupUnlock[] = [await recoveryKeyUnlock(dataKey, recoveryKey, publicKey)];
  if (passphrase) unlocks.push(await passphraseUnlock(dataKey, passphrase, publicKey));
  return {
    version: keyBackupVersion,
    publicKey,
    privateKey: { iv: bytesToBase64(iv), ciphertext: bytesToBase64(new Uint8Array(ciphertext)) },
    unlocks,
  };
};

const malformed = () => new VeilCryptoError('ERR_BACKUP_FORMAT', 'This key backup is malformed');

/** Base64 fields of a backup; anything unreadable is a malformed backup, not a wrong secret. */
const decodeField = (value: unknown): Uint8Array<ArrayBuffer> => {
  if (typeof value !== 'string') throw malformed();
  try {
    return base64ToBytes(value);
  } catch {
    throw malformed();
  }
};

/** The backup's version first: a newer format is named as such, not as a wrong secret. */
const checkVersion = (backup: KeyBackup): void => {
  if (typeof backup !== 'object' || backup === null) throw malformed();
  if (backup.version !== keyBackupVersion)
    throw new VeilCryptoError(
      'ERR_BACKUP_VERSION',
      `This key backup has format version ${String(backup.version)}, which this version of Veil cannot read`,
    );
};

const kekFor = (unlock: BackupUnlock, secret: BackupSecret): Promise<CryptoKey> => {
  const salt = decodeField(unlock.kdf?.salt);
  if ('recoveryKey' in secret) return recoveryKeyKek(secret.recoveryKey, salt);
  const { iterations } = unlock.kdf as PassphraseUnlock['kdf'];
  if (
    !Number.isInteger(iterations) ||
    iterations < minPassphraseIterations ||
    iterations > maxPassphraseIterations
  )
    throw malformed();
  return passphraseKek(secret.passphrase, salt, iterations);
};

/** The data key, unwrapped with the recovery key or the passphrase. */
const unlockDataKey = async (backup: KeyBackup, secret: BackupSecret): Promise<CryptoKey> => {
  checkVersion(backup);
  const kind = 'recoveryKey' in secret ? 'recovery-key' : 'passphrase';
  const unlock = Array.isArray(backup.unlocks) ? backup.unlocks.find((u) => u.kind === kind) : undefined;
  if (!unlock)
    throw new VeilCryptoError(
      'ERR_BACKUP_SECRET',
      kind === 'passphrase' ? 'This key backup has no passphrase' : 'This key backup has no recovery key',
    );
  const iv = decodeField(unlock.iv);
  const wrapped = decodeField(unlock.wrappedKey);
  const kek = await kekFor(unlock, secret);
  try {
    return await crypto.subtle.unwrapKey(
      'raw',
      wrapped,
      kek,
      gcm(iv, aad(kind, backup.publicKey)),
      aes256,
      true,
      wrapping,
    );
  } catch {
    throw new VeilCryptoError(
      'ERR_BACKUP_SECRET',
      kind === 'passphrase'
        ? 'This passphrase does not open the key backup'
        : 'This recovery key does not open the key backup',
    );
  }
};

/** The private key inside, checked against the public key the backup names. */
const unwrapPrivateKey = async (backup: KeyBackup, dataKey: CryptoKey): Promise<CryptoKey> => {
  const damaged = () =>
    new VeilCryptoError('ERR_BACKUP_DAMAGED', 'The key backup opened but the key inside is damaged');
  const ciphertext = decodeField(backup.privateKey?.ciphertext);
  const iv = decodeField(backup.privateKey?.iv);
  let privateKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.unwrapKey(
      'pkcs8',
      ciphertext,
      dataKey,
      gcm(iv, aad('private-key', backup.publicKey)),
      importParams,
      true,
      ['decrypt'],
    );
  } catch {
    throw damaged();
  }
  const jwk = await crypto.subtle.exportKey('jwk', privateKey);
  if (!(await privateJwkMatchesPublicKey(jwk, backup.publicKey))) throw damaged();
  return privateKey;
};

/**
 * Opens a backup with its recovery key (any case, spaces or dashes) or its passphrase. The key
 * comes back extractable, for the caller to keep in memory only long enough to store a
 * non-extractable copy (and, in the browser, the sealed copy of `sealPrivateKey`).
 */
export const openKeyBackup = async (backup: KeyBackup, secret: BackupSecret): Promise<CryptoKey> =>
  unwrapPrivateKey(backup, await unlockDataKey(backup, secret));

/**
 * The same backup (same data key, same encrypted private key, same recovery-key unlock) with a
 * new passphrase, or none (`null`). Opening it with `unlockWith` (the recovery key or the current
 * passphrase) proves the caller may change it.
 */
export const setBackupPassphrase = async (
  backup: KeyBackup,
  unlockWith: BackupSecret,
  passphrase: string | null,
): Promise<KeyBackup> => {
  const dataKey = await unlockDataKey(backup, unlockWith);
  await unwrapPrivateKey(backup, dataKey);
  const kept = backup.unlocks.filter((unlock) => unlock.kind !== 'passphrase');
  return {
    ...backup,
    unlocks: passphrase ? [...kept, await passphraseUnlock(dataKey, passphrase, backup.publicKey)] : kept,
  };
};
