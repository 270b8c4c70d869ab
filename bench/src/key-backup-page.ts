import * as c from '@veil/crypto';

/**
 * The page side of the key-backup benchmark (bundled for Chromium by key-backup-bench.ts): one
 * timed round, returned as plain numbers.
 */
export interface KeyBackupPage {
  timeKeyBackupRound(): Promise<{
    argon2id: c.Argon2idParams;
    argon2idMs: number;
    pbkdf2Ms: number;
    openWithPassphraseMs: number;
    restoreBeyondKdfMs: number;
  }>;
}

/** What backups made before Argon2id carry: their first passphrase unlock still costs this. */
export const olderPbkdf2Iterations = 4_000_000;

const passphrase = 'a long benchmark passphrase';

/** One IndexedDB write, as the web client's key store makes it. */
const put = (value: unknown) =>
  new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('key-backup-bench');
    open.onupgradeneeded = () => open.result.createObjectStore('keys');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const transaction = open.result.transaction('keys', 'readwrite');
      transaction.objectStore('keys').put(value, 'me');
      transaction.oncomplete = () => {
        open.result.close();
        resolve();
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });

const timeKeyBackupRound: KeyBackupPage['timeKeyBackupRound'] = async () => {
  const pair = await c.generateUserKeyPair();
  const publicKey = await c.exportPublicKeySpkiBase64(pair.publicKey);
  const recoveryKey = c.generateRecoveryKey();
  const backup = await c.createKeyBackup({ privateKey: pair.privateKey, publicKey, recoveryKey, passphrase });
  const history = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      c.encryptMessage(`message ${i} of the page`, { me: pair.publicKey }),
    ),
  );
  const passphraseBytes = new TextEncoder().encode(passphrase);

  let started = performance.now();
  await c.deriveArgon2idKey(passphraseBytes, new Uint8Array(16), c.argon2idParams);
  const argon2idMs = performance.now() - started;

  const base = await crypto.subtle.importKey('raw', passphraseBytes, 'PBKDF2', false, ['deriveBits']);
  started = performance.now();
  await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(16), iterations: olderPbkdf2Iterations },
    base,
    256,
  );
  const pbkdf2Ms = performance.now() - started;

  started = performance.now();
  await c.openKeyBackup(backup, { passphrase });
  const openWithPassphraseMs = performance.now() - started;

  started = performance.now();
  const restored = await c.openKeyBackup(backup, { recoveryKey });
  const [usable, sealed] = await Promise.all([
    c.nonExtractablePrivateKey(restored),
    c.sealPrivateKey(restored),
  ]);
  await put({ privateKey: usable, publicKey, storedAt: Date.now(), sealed });
  await Promise.all(history.map((message) => c.decryptMessage(message, 'me', usable)));
  const restoreBeyondKdfMs = performance.now() - started;

  return { argon2id: c.argon2idParams, argon2idMs, pbkdf2Ms, openWithPassphraseMs, restoreBeyondKdfMs };
};

(window as unknown as KeyBackupPage).timeKeyBackupRound = timeKeyBackupRound;
