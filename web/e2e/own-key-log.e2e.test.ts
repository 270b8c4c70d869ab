import {
  base64ToBytes,
  createKeyBackup,
  exportPrivateKeyJwk,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateLinkKeyPair,
  generateSigningKeyPair,
  generateUserKeyPair,
  linkCommitment,
  signKeyLogEntry,
  type KeyLogEntry,
} from '@veil/crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readQrText } from '../src/features/device-link/qr-read.ts';
import { writeBlankFeed, writeQrFeed } from './camera-feed.ts';
import {
  currentUserId,
  login,
  openChat,
  restoreDialog,
  sameUserElsewhere,
  sayHi,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { phone, useVeilWeb, type VeilWeb } from './harness.ts';
import { stealSigningKey, writeLegacyKey } from './key-storage.ts';

const password = 'correct horse 1';

/** A JSON answer of Veil's API (`{success, message, data}`). */
interface Answer<T> {
  success: boolean;
  data: T;
}

/** The session-start check of the account's own log has run on this page. */
const ownLogChecked = (page: Page) => page.locator('[data-own-log-checked]').waitFor({ state: 'attached' });
const ownLogAlerts = (page: Page) =>
  page
    .getByRole('region', { name: 'Key changes you did not make' })
    .getByRole('alert')
    .filter({ hasText: 'A key change you did not make was added to your account on' });

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('accesstoken')!);

const api = async <T>(
  veil: VeilWeb,
  page: Page,
  route: string,
  init: { method?: string; json?: unknown } = {},
) => {
  const response = await fetch(`${veil.url}/api/v1/${route}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${await tokenOf(page)}`,
      ...(init.json ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Answer<T> };
};

/**
 * The account's own key log watched by its browsers, what the account trusted carried to a
 * restored or linked browser, and the link QR code's commitment, in real Chromium behind the
 * hostile proxy.
 */
describe('own key log, trust that travels, the link QR commitment (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb({ hostile: true });

  /** Someone's browser on "Link from another browser" (after logging in), with the code it shows. */
  const newBrowserOnLinkScreen = async (name: string) => {
    const fresh = await veil().newPage(phone);
    await login(fresh, name, password);
    await restoreDialog(fresh).getByRole('button', { name: 'Link from another browser' }).click();
    const dialog = fresh.getByRole('dialog', { name: 'Link from another browser' });
    await dialog.getByRole('img', { name: 'QR code of the link code' }).waitFor();
    const code = (await dialog.getByTestId('link-code').textContent())!.trim();
    return { fresh, dialog, code };
  };
  const linkCard = (page: Page) => page.getByRole('region', { name: 'Link a new browser' });

  it('alerts every browser of the account to an entry of its log that none of them made, and to none of theirs', async () => {
    const alice = await signedUpPerson(veil(), 'ola');
    const aliceId = await currentUserId(alice.page);
    // Its registration entry is the browser's own.
    await ownLogChecked(alice.page);
    expect(await ownLogAlerts(alice.page).count()).toBe(0);
    // So it is to a browser restored from the backup.
    const elsewhere = await sameUserElsewhere(veil(), alice);
    await ownLogChecked(elsewhere);
    expect(await ownLogAlerts(elsewhere).count()).toBe(0);

    // A thief who copied the browser's storage signs an entry with the account's own key and
    // posts it as the account, as a server holding that key could: it passes every check.
    const signingKey = await crypto.subtle.importKey(
      'pkcs8',
      base64ToBytes(await stealSigningKey(alice.page, aliceId)),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['sign'],
    );
    const log = await api<{ entries: KeyLogEntry[] }>(veil(), alice.page, `users/${aliceId}/keyLog`);
    const head = log.body.data.entries.at(-1)!;
    const stolen = await signKeyLogEntry(
      head,
      { encryptionKey: head.encryptionKey, signingKey: head.signingKey!, reason: 'attested' },
      signingKey,
    );
    const posted = await api(veil(), alice.page, 'user/attestKeys', {
      method: 'POST',
      json: { entry: stolen },
    });
    expect(posted.status).toBe(201);

    // Both browsers raise the alert at their next load, with what to do.
    for (const page of [alice.page, elsewhere]) {
      await page.reload();
      const alert = ownLogAlerts(page);
      await alert.waitFor();
      await expect.poll(() => alert.innerText()).toMatch(/Reset your keys/);
    }

    // Dismissed, it stays dismissed in that browser; the other still shows it.
    await ownLogAlerts(alice.page).getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => ownLogAlerts(alice.page).count()).toBe(0);
    await alice.page.reload();
    await ownLogChecked(alice.page);
    expect(await ownLogAlerts(alice.page).count()).toBe(0);
    await elsewhere.reload();
    await ownLogAlerts(elsewhere).waitFor();
  });

  it("raises no alert for a linked browser's signing-key entry: it reaches the first browser through the backup's state", async () => {
    const proxy = veil().proxy;
    // An account from before signing keys: the server's unsigned entry, and a backup of its key.
    const keys = await generateUserKeyPair();
    const publicKey = await exportPublicKeySpkiBase64(keys.publicKey);
    const name = uniqueName('olk');
    const form = new FormData();
    form.append('username', name);
    form.append('password', password);
    form.append('publicKey', publicKey);
    const backup = await createKeyBackup({
      privateKey: keys.privateKey,
      publicKey,
      recoveryKey: generateRecoveryKey(),
    });
    form.append('keyBackup', JSON.stringify(backup));
    expect((await fetch(`${veil().url}/api/v1/user/register`, { method: 'POST', body: form })).status).toBe(
      201,
    );

    // Its first browser holds the key an earlier version stored; the signing-key entry it makes
    // at login never reaches the server.
    proxy.withhold({ method: 'POST', path: '/api/v1/user/signingKey' });
    const first = await veil().newPage();
    await first.goto('/');
    await writeLegacyKey(first, await exportPrivateKeyJwk(keys.privateKey));
    await login(first, name, password);
    const withheldPosts = () =>
      proxy.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/user/signingKey').length;
    await expect.poll(withheldPosts).toBe(1);
    await ownLogChecked(first);
    expect(await ownLogAlerts(first).count()).toBe(0);

    // A browser linked from it makes the account's signing-key entry, and records it. (The first
    // browser's page load for the link tries its own once more, withheld too.)
    const { fresh, dialog, code } = await newBrowserOnLinkScreen(name);
    await first.goto('/profile');
    await expect.poll(withheldPosts).toBe(2);
    proxy.behave();
    await linkCard(first).getByLabel('Link code').fill(code);
    await linkCard(first).getByRole('button', { name: 'Link', exact: true }).click();
    await linkCard(first).getByRole('button', { name: 'They match: send my keys' }).click();
    await dialog.getByText('This browser now has your keys', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    const userId = await currentUserId(fresh);
    await expect
      .poll(
        async () =>
          (
            await api<{ entries: KeyLogEntry[] }>(veil(), fresh, `users/${userId}/keyLog`)
          ).body.data.entries.map((entry) => entry.reason),
        { timeout: 30_000 },
      )
      .toEqual(['registered', 'signing-key-added']);
    await ownLogChecked(fresh);
    expect(await ownLogAlerts(fresh).count()).toBe(0);
    await expect
      .poll(
        async () => (await api<{ state: unknown }>(veil(), fresh, 'user/keyBackup/state')).body.data.state,
        {
          timeout: 30_000,
        },
      )
      .not.toBeNull();

    // The first browser made no such entry, and knows it as the linked browser's.
    await first.reload();
    await ownLogChecked(first);
    expect(await ownLogAlerts(first).count()).toBe(0);
  });

  it('carries pins and verified marks to a restored and a linked browser: a rewritten log is refused there, not trusted on first use', async () => {
    const proxy = veil().proxy;
    const alice = await signedUpPerson(veil(), 'pta');
    const bob = await signedUpPerson(veil(), 'ptb');
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    await sayHi(alice.page, bob.name);

    // Alice compares safety numbers and marks Bob verified; her backup's state follows.
    const marked = new Date().toISOString();
    await alice.page.getByRole('button', { name: 'Verify safety number' }).click();
    const verify = alice.page.getByRole('dialog', { name: 'Verify safety number' });
    await verify.getByRole('button', { name: 'Mark as verified' }).click();
    await verify.getByText(`${bob.name} is verified.`).waitFor();
    await verify.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(
        async () =>
          Date.parse(
            (await api<{ storedAt: string }>(veil(), alice.page, 'user/keyBackup/state')).body.data.storedAt,
          ),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(Date.parse(marked));

    // A browser restored from the backup shows Bob verified.
    const restored = await sameUserElsewhere(veil(), alice);
    await openChat(restored, bob.name);
    await restored.getByText('Verified', { exact: true }).waitFor();

    // From now on the server shows Alice's browsers a log for Bob of its own making, signed, as
    // it can for a browser that never saw Bob.
    const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const keys = {
      encryptionKey: await exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
    };
    const forged = await signKeyLogEntry(null, { ...keys, reason: 'registered' }, signing.privateKey);
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/users/:id/keyLog' }, (body, { params, viewer }) => {
      if (params.id !== bobId || viewer !== aliceId) return undefined;
      const { data } = body as Answer<{ current: Record<string, unknown> }>;
      return { ...(body as object), data: { entries: [forged], current: { ...data.current, ...keys } } };
    });

    // A browser linked now has never fetched Bob's log: it checks the forged one against the pin
    // that came with the keys, and refuses it as the first browser does.
    const { fresh, dialog, code } = await newBrowserOnLinkScreen(alice.name);
    await alice.page.goto('/profile');
    await linkCard(alice.page).getByLabel('Link code').fill(code);
    await linkCard(alice.page).getByRole('button', { name: 'Link', exact: true }).click();
    await linkCard(alice.page).getByRole('button', { name: 'They match: send my keys' }).click();
    await dialog.getByText('This browser now has your keys', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    for (const page of [fresh, restored, alice.page]) {
      await page.goto('/all-chats');
      await openChat(page, bob.name);
      const warning = page
        .getByRole('alert')
        .filter({ hasText: `${bob.name}'s keys could not be confirmed` });
      await warning.waitFor();
      await expect.poll(() => warning.innerText()).toMatch(/rewritten/);
      expect(await page.getByText('Verified', { exact: true }).count()).toBe(0);
    }
  });

  it('refuses a scanned link whose new-browser key the server swapped: the QR code carries its commitment', async () => {
    const proxy = veil().proxy;
    const feed = path.join(mkdtempSync(path.join(tmpdir(), 'veil-camera-')), 'camera.y4m');
    writeBlankFeed(feed);
    const home = await veil().newPageWithCamera(feed);
    const alice = await signedUpPerson({ newPage: async () => home }, 'qra');
    const aliceId = await currentUserId(alice.page);

    // The relay puts its own one-time key in place of the new browser's: it opens the link with
    // the commitment to its key (and would reveal that key later), so the logged-in browser is
    // served a commitment and a key that agree with each other.
    const relay = await generateLinkKeyPair();
    const relayCommitment = await linkCommitment(relay.publicKey);
    proxy.rewriteEvents('toServer', (event, { viewer }) => {
      if (viewer !== aliceId || event.name !== 'link open') return undefined;
      const [request, ...rest] = event.args as [Record<string, unknown>, ...unknown[]];
      return { name: event.name, args: [{ ...request, commitment: relayCommitment }, ...rest] };
    });

    const { dialog } = await newBrowserOnLinkScreen(alice.name);
    // What the camera sees is what the new browser's screen shows: its QR code, read as pixels.
    const pixels = await dialog
      .getByRole('img', { name: 'QR code of the link code' })
      .evaluate(async (svg) => {
        // Drawn from the SVG's own path: its modules as the screen shows them.
        const side = Number(svg.getAttribute('viewBox')!.split(' ')[2]);
        const canvas = document.createElement('canvas');
        canvas.width = 400;
        canvas.height = 400;
        const context = canvas.getContext('2d')!;
        context.fillStyle = '#fff';
        context.fillRect(0, 0, 400, 400);
        context.scale(400 / side, 400 / side);
        context.fillStyle = '#000';
        context.fill(new Path2D(svg.querySelector('path')!.getAttribute('d')!));
        return Array.from(context.getImageData(0, 0, 400, 400).data);
      });
    const qrText = readQrText({ data: Uint8ClampedArray.from(pixels), width: 400, height: 400 })!;
    expect(qrText).toMatch(/^VEIL-LINK-1 \S+ \S+$/);
    const [, , commitment] = qrText.split(' ');
    expect(commitment).not.toBe(relayCommitment);
    await alice.page.goto('/profile');
    writeQrFeed(feed, qrText);
    await linkCard(alice.page).getByRole('button', { name: 'Scan QR code' }).click();
    await linkCard(alice.page)
      .getByRole('alert')
      .getByText('The code you scanned does not belong to the browser that answered', { exact: false })
      // Reading the QR code off the fake camera's frames is slow on a busy machine.
      .waitFor({ timeout: 45_000 });
    // Nothing was sent: the new browser never got to the digits.
    expect(await linkCard(alice.page).getByTestId('link-digits').count()).toBe(0);
    expect(await dialog.getByText('This browser now has your keys', { exact: false }).count()).toBe(0);
  });
});
