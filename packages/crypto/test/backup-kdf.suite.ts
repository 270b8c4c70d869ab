import type { KeyBackup, PassphraseUnlock } from '../src/index.ts';
import { pbkdf2KeyBackup } from './pbkdf2-key-backup.fixture.ts';
import { assert, rejects, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** The passphrase KDF of the key backup: Argon2id for new unlocks, bounded parameters, PBKDF2 backups upgraded. */
export const backupKdfCases = (c: CryptoModule): CryptoCase[] => {
  const passphraseUnlockOf = (backup: KeyBackup) =>
    backup.unlocks.find((u): u is PassphraseUnlock => u.kind === 'passphrase')!;
  const withKdf = (backup: KeyBackup, kdf: unknown): KeyBackup => ({
    ...backup,
    unlocks: backup.unlocks.map((u) => (u.kind === 'passphrase' ? ({ ...u, kdf } as PassphraseUnlock) : u)),
  });
  const malformed = (e: { code?: string }) => e.code === 'ERR_BACKUP_FORMAT';

  return [
    {
      name: 'refuses Argon2id parameters out of bounds before deriving anything (memory, passes, lanes, their product)',
      async run() {
        const pair = await c.generateUserKeyPair();
        const passphrase = 'bounded passphrase';
        const backup = await c.createKeyBackup({
          privateKey: pair.privateKey,
          publicKey: await c.exportPublicKeySpkiBase64(pair.publicKey),
          recoveryKey: c.generateRecoveryKey(),
          passphrase,
        });
        const { kdf } = passphraseUnlockOf(backup);
        const b = c.argon2idBounds;
        const planted = [
          { memoryKiB: b.minMemoryKiB - 1 },
          { memoryKiB: 4 * 1024 * 1024 }, // 4 GiB: would exhaust the page
          { memoryKiB: b.maxMemoryKiB, iterations: b.maxIterations }, // each within bounds, the product not
          { iterations: 1 },
          { iterations: 1_000_000 }, // would hang the page
          { parallelism: 4 },
          { memoryKiB: 65_536.5 },
          { iterations: '4' },
          { name: 'scrypt' },
        ];
        for (const change of planted)
          await rejects(
            c.openKeyBackup(withKdf(backup, { ...kdf, ...change }), { passphrase }),
            malformed,
            JSON.stringify(change),
          );
        assert(!c.argon2idParamsAreAcceptable({ ...c.argon2idParams, parallelism: 2 }), 'one lane');
        assert(c.argon2idParamsAreAcceptable(c.argon2idParams), 'the defaults are within bounds');
      },
    },
    {
      name: 'opens a backup made with PBKDF2, and a passphrase unlock re-wraps it with Argon2id (the rest byte for byte)',
      async run() {
        const { backup, recoveryKey, passphrase } = pbkdf2KeyBackup;
        assert(passphraseUnlockOf(backup).kdf.name === 'PBKDF2-SHA256', 'the fixture is a PBKDF2 backup');
        const byRecoveryKey = await c.openKeyBackupBundle(backup, { recoveryKey });
        assert(byRecoveryKey.upgradedBackup === undefined, 'the recovery key cannot re-wrap the passphrase');
        await rejects(
          c.openKeyBackupBundle(backup, { passphrase: `${passphrase}!` }),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'a wrong passphrase',
        );

        const opened = await c.openKeyBackupBundle(backup, { passphrase });
        const upgraded = opened.upgradedBackup;
        assert(upgraded, 'a PBKDF2 passphrase unlock is re-wrapped');
        const jwkOf = async (key: CryptoKey) => (await crypto.subtle.exportKey('jwk', key)).d;
        assert(
          (await jwkOf(opened.encryptionKey)) === (await jwkOf(byRecoveryKey.encryptionKey)),
          'the same key either way',
        );
        const { unlocks: before, ...restBefore } = backup;
        const { unlocks: after, ...restAfter } = upgraded;
        assert(
          JSON.stringify(restAfter) === JSON.stringify(restBefore),
          'keys, version and public key unchanged',
        );
        assert(JSON.stringify(after[0]) === JSON.stringify(before[0]), 'the recovery-key unlock unchanged');
        const { kdf } = passphraseUnlockOf(upgraded);
        assert(kdf.name === 'Argon2id' && kdf.memoryKiB === c.argon2idParams.memoryKiB, 'now Argon2id');
        assert(kdf.salt !== passphraseUnlockOf(backup).kdf.salt, 'a fresh salt');

        const reopened = await c.openKeyBackupBundle(upgraded, { passphrase });
        assert(reopened.upgradedBackup === undefined, 'an Argon2id unlock is not re-wrapped again');
        assert(reopened.signingKey?.publicKey === backup.signingKey?.publicKey, 'the signing key too');
        assert((await jwkOf(reopened.encryptionKey)) === (await jwkOf(opened.encryptionKey)), 'same key');
        await c.openKeyBackup(upgraded, { recoveryKey });
      },
    },
    {
      name: 'refuses PBKDF2 iteration counts out of bounds in an older backup',
      async run() {
        const { backup, passphrase } = pbkdf2KeyBackup;
        const { kdf } = passphraseUnlockOf(backup);
        for (const iterations of [1000, 599_999, 10_000_001, 1e12])
          await rejects(
            c.openKeyBackup(withKdf(backup, { ...kdf, iterations }), { passphrase }),
            malformed,
            `${iterations} iterations`,
          );
      },
    },
  ];
};
