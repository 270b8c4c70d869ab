import {
  createKeyBackup,
  exportPrivateKeyJwk,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateUserKeyPair,
  openKeyBackup,
} from '@veil/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18nReady } from '../../lib/i18n.ts';
import { retryDelaySeconds, unlockErrorText, unlockTexts, withTypedSecret } from './unlock.ts';

/** One field for either secret, with the real @veil/crypto (WebCrypto in Node). */

// The texts are a chunk of their own, as in the browser.
beforeAll(() => i18nReady);

describe('opening a backup with what was typed', () => {
  let keys: CryptoKeyPair;
  let recoveryKey: string;
  let withPassphrase: Awaited<ReturnType<typeof createKeyBackup>>;
  let withoutPassphrase: Awaited<ReturnType<typeof createKeyBackup>>;
  beforeAll(async () => {
    keys = await generateUserKeyPair();
    const publicKey = await exportPublicKeySpkiBase64(keys.publicKey);
    recoveryKey = generateRecoveryKey();
    const input = { privateKey: keys.privateKey, publicKey, recoveryKey };
    [withPassphrase, withoutPassphrase] = await Promise.all([
      createKeyBackup({ ...input, passphrase: 'a typed passphrase' }),
      createKeyBackup(input),
    ]);
  }, 30_000);

  const open = (backup: typeof withPassphrase, typed: string) =>
    withTypedSecret(backup, typed, (secret) => openKeyBackup(backup, secret));
  const failure = (backup: typeof withPassphrase, typed: string) =>
    open(backup, typed).then(
      () => 'opened',
      (error: unknown) => unlockErrorText(error, typed),
    );

  it('opens with the recovery key however typed, or with the passphrase', async () => {
    const d = (await exportPrivateKeyJwk(keys.privateKey)).d;
    const loose = ` ${recoveryKey.toLowerCase().replace(/-/g, '  ')} `;
    expect((await exportPrivateKeyJwk(await open(withoutPassphrase, loose))).d).toBe(d);
    expect((await exportPrivateKeyJwk(await open(withPassphrase, 'a typed passphrase'))).d).toBe(d);
  }, 30_000);

  it('names what went wrong in words the user can act on', async () => {
    const otherKey = generateRecoveryKey();
    expect(await failure(withoutPassphrase, otherKey)).toBe(unlockTexts.wrongKey);
    expect(await failure(withPassphrase, otherKey)).toBe(unlockTexts.wrongKey); // tried as both
    expect(await failure(withPassphrase, 'not the passphrase')).toBe(unlockTexts.wrongPassphrase);
    expect(await failure(withoutPassphrase, 'not the passphrase')).toBe(unlockTexts.notAKey);
    expect(await failure({ ...withoutPassphrase, version: 3 } as never, recoveryKey)).toBe(
      unlockTexts.newerVersion,
    );
  }, 30_000);
});

describe('the wait after wrong codes (retryDelaySeconds)', () => {
  it('doubles from 1 s and stops at a minute', () => {
    expect([0, 1, 2, 3, 4, 6, 7, 20].map(retryDelaySeconds)).toEqual([0, 1, 2, 4, 8, 32, 60, 60]);
  });
});
