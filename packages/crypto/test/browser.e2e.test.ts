import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions, openBundledPage } from '@veil/test-env';
import * as veilCrypto from '../src/index.ts';
import { cryptoCases } from './crypto.suite.ts';

/**
 * The same cases in real Chromium (Debian's, driven by playwright-core), plus messages crossing
 * runtimes: encrypted in the browser and read in Node, and the other way round.
 */
let browser: Browser;
let page: Page;
let closePage: (() => Promise<void>) | undefined;

beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions());
  ({ page, close: closePage } = await openBundledPage(
    browser,
    path.join(import.meta.dirname, 'browser-entry.ts'),
    'runCryptoCases',
  ));
}, 60_000);

afterAll(async () => {
  await closePage?.();
  await browser?.close();
});

describe('@veil/crypto in Chromium', () => {
  it('passes every shared case', async () => {
    const results = await page.evaluate(() => window.runCryptoCases());
    expect(results.map((r) => r.name)).toEqual(cryptoCases(veilCrypto).map((c) => c.name));
    expect(results.filter((r) => r.error)).toEqual([]);
  }, 120_000);

  it('reads in Node what the browser encrypted', async () => {
    const { publicKey, privateKey } = await veilCrypto.generateUserKeyPair();
    const spki = await veilCrypto.exportPublicKeySpkiBase64(publicKey);
    const envelope = await page.evaluate(async (key) => {
      const c = window.veilCrypto;
      return c.encryptMessage('from the browser ✓', { node: await c.importPublicKeySpkiBase64(key) });
    }, spki);
    expect(await veilCrypto.decryptMessage(envelope, 'node', privateKey)).toBe('from the browser ✓');
  });

  it('reads in the browser what Node encrypted', async () => {
    const spki = await page.evaluate(async () => {
      const c = window.veilCrypto;
      const pair = await c.generateUserKeyPair();
      (window as unknown as { pair: CryptoKeyPair }).pair = pair;
      return c.exportPublicKeySpkiBase64(pair.publicKey);
    });
    const envelope = await veilCrypto.encryptMessage('from Node ✓', {
      page: await veilCrypto.importPublicKeySpkiBase64(spki),
    });
    const text = await page.evaluate(
      (env) =>
        window.veilCrypto.decryptMessage(
          env,
          'page',
          (window as unknown as { pair: CryptoKeyPair }).pair.privateKey,
        ),
      envelope,
    );
    expect(text).toBe('from Node ✓');
  });

  it('opens in Node a key backup the browser made, with its recovery key and its passphrase', async () => {
    const made = await page.evaluate(async () => {
      const c = window.veilCrypto;
      const pair = await c.generateUserKeyPair();
      const publicKey = await c.exportPublicKeySpkiBase64(pair.publicKey);
      const recoveryKey = c.generateRecoveryKey();
      const backup = await c.createKeyBackup({
        privateKey: pair.privateKey,
        publicKey,
        recoveryKey,
        passphrase: 'made in Chromium',
      });
      const envelope = await c.encryptMessage('kept safe', { me: pair.publicKey });
      return { backup, recoveryKey, envelope };
    });
    for (const secret of [{ recoveryKey: made.recoveryKey }, { passphrase: 'made in Chromium' }]) {
      const key = await veilCrypto.openKeyBackup(made.backup, secret);
      expect(await veilCrypto.decryptMessage(made.envelope, 'me', key)).toBe('kept safe');
    }
  });
});
