import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';
import { importParams, privateJwkMatchesPublicKey } from './keys.ts';
import {
  argon2idParams,
  argon2idParamsAreAcceptable,
  deriveArgon2idKey,
  type Argon2idParams,
} from './argon2id.ts';
import type { SealedAccountState } from './account-state.ts';
import { recoveryKeyBytesOf } from './recovery-key.ts';
import { ecdsaP256, signingJwkMatchesPublicKey } from './signing-key.ts';

/**
 * The encrypted backup of an account's private key, made and opened in the browser only. A
 * random data key (AES-GCM 256) encrypts the PKCS#8 private key; the data key is wrapped once per
 * secret: always under the recovery key (HKDF-SHA256: it has 160 bits of entropy, so no
 * stretching is needed), and, if the user sets one, under a passphrase (Argon2id, memory-hard: a
 * passphrase can be guessed, each guess must be expensive in time and memory; backups made
 * earlier use PBKDF2-SHA256 and are re-wrapped at their next passphrase unlock). The server stores the
 * result as it is and can open none of it. Every ciphertext is bound (AES-GCM additional data) to
 * the format version, its role and the public key the backup claims to hold, so parts cannot be
 * swapped between backups or roles.
 *
 * Version 2 carries the whole key bundle: the encryption key and, when the account has one, its
 * signing key (encrypted under the same data key). Version 1 (the encryption key alone) still opens.
 */
export const keyBackupVersion = 2;
const readableVersions: readonly number[] = [1, 2];
type BackupVersion = 1 | 2;

/**
 * PBKDF2-SHA256, the passphrase KDF of earlier backups: still opened (and then re-wrapped with
 * Argon2id), never made. The count is read from each backup within these bounds: OWASP's floor,
 * and a ceiling so a planted backup cannot hang the page.
 */
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

/** How a passphrase unlock stretches the passphrase: Argon2id for every new one, PBKDF2 in older backups. */
export type PassphraseKdf =
  | { name: 'PBKDF2-SHA256'; salt: string; iterations: number }
  | ({ name: 'Argon2id'; salt: string } & Argon2idParams);

export interface PassphraseUnlock {
  kind: 'passphrase';
  kdf: PassphraseKdf;
  iv: string;
  wrappedKey: string;
}

export type BackupUnlock = RecoveryKeyUnlock | PassphraseUnlock;

export interface KeyBackup {
  version: BackupVersion;
  /** The public key (base64 SPKI) of the private key inside: says which key this is. */
  publicKey: string;
  /** The PKCS#8 private key, encrypted under the data key. */
  privateKey: SealedBytes;
  /** Version 2: the account's signing key (ECDSA P-256), when it has one. */
  signingKey?: { publicKey: string; privateKey: SealedBytes };
  /** Exactly one recovery-key unlock, at most one passphrase unlock. */
  unlocks: BackupUnlock[];
  /** What the account's browsers trust, sealed apart from the keys (`account-state.ts`). */
  state?: SealedAccountState;
}

export type BackupSecret = { recoveryKey: string } | { passphrase: string };

/** What a backup holds, opened: extractable keys for the caller to store and drop. */
export interface OpenedKeyBundle {
  encryptionKey: CryptoKey;
  signingKey: { privateKey: CryptoKey; publicKey: string } | null;
  /**
   * Opened with a passphrase whose unlock uses an older KDF (PBKDF2): the same backup with that
   * unlock re-made with Argon2id, everything else byte for byte, for the caller to store.
   */
  upgradedBackup?: KeyBackup;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const random = (length: number) => crypto.getRandomValues(new Uint8Array(length));
const aad = (version: BackupVersion, role: string, publicKey: string) =>
  utf8(`veil key backup ${version}|${role}|${publicKey}`);
const gcm = (iv: Uint8Array<ArrayBuffer>, additionalData: Uint8Array<ArrayBuffer>): AesGcmParams => ({
  name: 'AES-GCM',
  iv,
  additionalData,
});
const aes256 = { name: 'AES-GCM', length: 256 } as const;
const wrapping: KeyUsage[] = ['wrapKey', 'unwrapKey'];

const recoveryKeyKek = async (
  version: BackupVersion,
  recoveryKey: string,
  salt: Uint8Array<ArrayBuffer>,
): Promise<CryptoKey> => {
  const bytes = recoveryKeyBytesOf(recoveryKey);
  if (!bytes)
    throw new VeilCryptoError(
      'ERR_RECOVERY_KEY_FORMAT',
      'A recovery key is 32 letters and digits (8 groups of 4)',
    );
  const base = await crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: utf8(`veil key backup ${version}|recovery key`) },
    base,
    aes256,
    false,
    wrapping,
  );
};

// NFC: the same passphrase typed on another keyboard or system gives the same bytes.
const passphraseBytes = (passphrase: string) => utf8(passphrase.normalize('NFC'));

const pbkdf2Kek = async (
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> => {
  const base = await crypto.subtle.importKey('raw', passphraseBytes(passphrase), 'PBKDF2', false, [
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

const argon2idKek = async (
  passphrase: string,
  salt: Uint8Array<ArrayBuffer>,
  params: Argon2idParams,
): Promise<CryptoKey> => {
  const bytes = await deriveArgon2idKey(passphraseBytes(passphrase), salt, params);
  return crypto.subtle.importKey('raw', bytes, aes256, false, wrapping);
};

type Binding = { version: BackupVersion; publicKey: string };

const wrapDataKey = async (dataKey: CryptoKey, kek: CryptoKey, role: string, binding: Binding) => {
  const iv = random(12);
  const wrapped = await crypto.subtle.wrapKey(
    'raw',
    dataKey,
    kek,
    gcm(iv, aad(binding.version, role, binding.publicKey)),
  );
  return { iv: bytesToBase64(iv), wrappedKey: bytesToBase64(new Uint8Array(wrapped)) };
};

const recoveryKeyUnlock = async (
  dataKey: CryptoKey,
  recoveryKey: string,
  binding: Binding,
): Promise<RecoveryKeyUnlock> => {
  const salt = random(16);
  const kek = await recoveryKeyKek(binding.version, recoveryKey, salt);
  return {
    kind: 'recovery-key',
    kdf: { name: 'HKDF-SHA256', salt: bytesToBase64(salt) },
    ...(await wrapDataKey(dataKey, kek, 'recovery-key', binding)),
  };
};

const passphraseUnlock = async (
  dataKey: CryptoKey,
  passphrase: string,
  binding: Binding,
): Promise<PassphraseUnlock> => {
  const salt = random(16);
  const kek = await argon2idKek(passphrase, salt, argon2idParams);
  return {
    kind: 'passphrase',
    kdf: { name: 'Argon2id', salt: bytesToBase64(salt), ...argon2idParams },
    ...(await wrapDataKey(dataKey, kek, 'passphrase', binding)),
  };
};

const sealUnder = async (dataKey: CryptoKey, key: CryptoKey, additionalData: Uint8Array<ArrayBuffer>) => {
  const iv = random(12);
  const ciphertext = await crypto.subtle.wrapKey('pkcs8', key, dataKey, gcm(iv, additionalData));
  return { iv: bytesToBase64(iv), ciphertext: bytesToBase64(new Uint8Array(ciphertext)) };
};

/** The signing key's additional data names both public keys: it cannot move to another bundle. */
const signingKeyRole = (signingPublicKey: string) => `signing-key|${signingPublicKey}`;

/**
 * A new backup of the account's key bundle: `privateKey` (the encryption key) and, when the
 * account has one, `signingKey`, both extractable (freshly generated, or unsealed for this
 * purpose), under the recovery key and, if given, a passphrase.
 */
export const createKeyBackup = async (input: {
  privateKey: CryptoKey;
  publicKey: string;
  signingKey?: { privateKey: CryptoKey; publicKey: string } | null;
  recoveryKey: string;
  passphrase?: string | null;
}): Promise<KeyBackup> => {
  const { privateKey, publicKey, signingKey, recoveryKey, passphrase } = input;
  const binding: Binding = { version: keyBackupVersion, publicKey };
  const dataKey = await crypto.subtle.generateKey(aes256, true, wrapping);
  const unlocks: BackupUnlock[] = [await recoveryKeyUnlock(dataKey, recoveryKey, binding)];
  if (passphrase) unlocks.push(await passphraseUnlock(dataKey, passphrase, binding));
  return {
    version: keyBackupVersion,
    publicKey,
    privateKey: await sealUnder(dataKey, privateKey, aad(keyBackupVersion, 'private-key', publicKey)),
    ...(signingKey && {
      signingKey: {
        publicKey: signingKey.publicKey,
        privateKey: await sealUnder(
          dataKey,
          signingKey.privateKey,
          aad(keyBackupVersion, signingKeyRole(signingKey.publicKey), publicKey),
        ),
      },
    }),
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
  if (!readableVersions.includes(backup.version))
    throw new VeilCryptoError(
      'ERR_BACKUP_VERSION',
      `This key backup has format version ${String(backup.version)}, which this version of Veil cannot read`,
    );
  if (backup.version === 1 && backup.signingKey !== undefined) throw malformed();
};

const kekFor = (version: BackupVersion, unlock: BackupUnlock, secret: BackupSecret): Promise<CryptoKey> => {
  const salt = decodeField(unlock.kdf?.salt);
  if ('recoveryKey' in secret) return recoveryKeyKek(version, secret.recoveryKey, salt);
  const kdf = unlock.kdf as PassphraseKdf;
  if (kdf.name === 'Argon2id') {
    // Bounded before any work: a planted backup must not hang the page or take gigabytes.
    if (!argon2idParamsAreAcceptable(kdf)) throw malformed();
    return argon2idKek(secret.passphrase, salt, kdf);
  }
  const { iterations } = kdf;
  if (
    kdf.name !== 'PBKDF2-SHA256' ||
    !Number.isInteger(iterations) ||
    iterations < minPassphraseIterations ||
    iterations > maxPassphraseIterations
  )
    throw malformed();
  return pbkdf2Kek(secret.passphrase, salt, iterations);
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
  const kek = await kekFor(backup.version, unlock, secret);
  try {
    return await crypto.subtle.unwrapKey(
      'raw',
      wrapped,
      kek,
      gcm(iv, aad(backup.version, kind, backup.publicKey)),
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

const damaged = () =>
  new VeilCryptoError('ERR_BACKUP_DAMAGED', 'The key backup opened but a key inside is damaged');

/** One PKCS#8 key of the bundle, decrypted and checked against the public key it is stored with. */
const unwrapBundleKey = async (
  sealed: SealedBytes | undefined,
  dataKey: CryptoKey,
  additionalData: Uint8Array<ArrayBuffer>,
  as: { algorithm: RsaHashedImportParams | EcKeyImportParams; usages: KeyUsage[] },
  matches: (jwk: JsonWebKey) => Promise<boolean>,
): Promise<CryptoKey> => {
  const ciphertext = decodeField(sealed?.ciphertext);
  const iv = decodeField(sealed?.iv);
  let key: CryptoKey;
  try {
    key = await crypto.subtle.unwrapKey(
      'pkcs8',
      ciphertext,
      dataKey,
      gcm(iv, additionalData),
      as.algorithm,
      true,
      as.usages,
    );
  } catch {
    throw damaged();
  }
  if (!(await matches(await crypto.subtle.exportKey('jwk', key)))) throw damaged();
  return key;
};

const openBundle = async (backup: KeyBackup, dataKey: CryptoKey): Promise<OpenedKeyBundle> => {
  const { version, publicKey, signingKey } = backup;
  const encryptionKey = await unwrapBundleKey(
    backup.privateKey,
    dataKey,
    aad(version, 'private-key', publicKey),
    { algorithm: importParams, usages: ['decrypt'] },
    (jwk) => privateJwkMatchesPublicKey(jwk, publicKey),
  );
  if (!signingKey) return { encryptionKey, signingKey: null };
  if (typeof signingKey.publicKey !== 'string') throw malformed();
  const signingPrivateKey = await unwrapBundleKey(
    signingKey.privateKey,
    dataKey,
    aad(version, signingKeyRole(signingKey.publicKey), publicKey),
    { algorithm: ecdsaP256, usages: ['sign'] },
    (jwk) => signingJwkMatchesPublicKey(jwk, signingKey.publicKey),
  );
  return { encryptionKey, signingKey: { privateKey: signingPrivateKey, publicKey: signingKey.publicKey } };
};

/**
 * Opens a backup with its recovery key (any case, spaces or dashes) or its passphrase: every key
 * inside, extractable, for the caller to keep in memory only long enough to store non-extractable
 * copies (and, in the browser, the sealed copies of `sealPrivateKey`).
 */
export const openKeyBackupBundle = async (
  backup: KeyBackup,
  secret: BackupSecret,
): Promise<OpenedKeyBundle> => {
  const dataKey = await unlockDataKey(backup, secret);
  const bundle = await openBundle(backup, dataKey);
  if (!('passphrase' in secret) || !usesOlderKdf(backup)) return bundle;
  return { ...bundle, upgradedBackup: await withPassphraseUnlock(backup, dataKey, secret.passphrase) };
};

const usesOlderKdf = (backup: KeyBackup): boolean =>
  backup.unlocks.some((unlock) => unlock.kind === 'passphrase' && unlock.kdf.name !== 'Argon2id');

/** The backup with its passphrase unlock replaced (or dropped): the rest stays byte for byte. */
const withPassphraseUnlock = async (
  backup: KeyBackup,
  dataKey: CryptoKey,
  passphrase: string | null,
): Promise<KeyBackup> => {
  const kept = backup.unlocks.filter((unlock) => unlock.kind !== 'passphrase');
  return {
    ...backup,
    unlocks: passphrase ? [...kept, await passphraseUnlock(dataKey, passphrase, backup)] : kept,
  };
};

/** Opens a backup and returns its encryption key alone (see `openKeyBackupBundle`). */
export const openKeyBackup = async (backup: KeyBackup, secret: BackupSecret): Promise<CryptoKey> =>
  (await openKeyBackupBundle(backup, secret)).encryptionKey;

/**
 * The same backup (same data key, same encrypted keys, same recovery-key unlock) with a new
 * passphrase, or none (`null`). Opening it with `unlockWith` (the recovery key or the current
 * passphrase) proves the caller may change it.
 */
export const setBackupPassphrase = async (
  backup: KeyBackup,
  unlockWith: BackupSecret,
  passphrase: string | null,
): Promise<KeyBackup> => {
  const dataKey = await unlockDataKey(backup, unlockWith);
  await openBundle(backup, dataKey);
  return withPassphraseUnlock(backup, dataKey, passphrase);
};
