import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  currentUserId,
  login,
  messageWithText,
  noKeyHereText,
  openChat,
  register,
  sayHi,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { writeBlankFeed, writeQrFeed } from './camera-feed.ts';
import { desktop, phone, useVeilWeb } from './harness.ts';
import { readKeyStore } from './key-storage.ts';

const password = 'correct horse 1';

/**
 * Linking a new browser from a logged-in one, in real Chromium: two browser contexts are two
 * browsers of one account (the new one at phone width while it links). The account has no backup, so the link
 * is the only way its history can be read in the new browser.
 */
describe('link a browser by code (browser)', { timeout: 180_000 }, () => {
  const veilWeb = useVeilWeb();

  /** Someone without a key backup, with a chat history written in their first browser. */
  const personWithHistory = async (prefix: string, home?: Page) => {
    const contact = await signedUpPerson(veilWeb(), `${prefix}c`);
    home ??= await veilWeb().newPage();
    const name = uniqueName(prefix);
    await register(home, name, password, undefined, { skip: true });
    await sayHi(home, contact.name);
    await messageWithText(home, `Hi ${contact.name}`).waitFor();
    await openChat(contact.page, name);
    await sendMessage(contact.page, 'Sent before the link');
    await messageWithText(home, 'Sent before the link').waitFor();
    return { home, name, contact, history: [`Hi ${contact.name}`, 'Sent before the link'] };
  };

  /** A second browser of the account, logged in, on "Link from another browser". */
  const newBrowserOnLinkScreen = async (name: string) => {
    const fresh = await veilWeb().newPage(phone);
    await login(fresh, name, password);
    await fresh.goto('/profile');
    await fresh.getByRole('button', { name: 'Restore it' }).click();
    await fresh
      .getByRole('dialog', { name: 'Restore your messages' })
      .getByRole('button', { name: 'Link from another browser' })
      .click();
    const dialog = fresh.getByRole('dialog', { name: 'Link from another browser' });
    await dialog.getByRole('img', { name: 'QR code of the link code' }).waitFor();
    const code = (await dialog.getByTestId('link-code').textContent())!.trim();
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/);
    return { fresh, dialog, code };
  };

  const linkCard = (page: Page) => page.getByRole('region', { name: 'Link a new browser' });

  const enterCode = async (page: Page, code: string) => {
    await page.goto('/profile');
    await linkCard(page).getByLabel('Link code').fill(code);
    await linkCard(page).getByRole('button', { name: 'Link', exact: true }).click();
  };

  it('links with the typed code: the same digits on both, then the history reads in the new browser', async () => {
    const alice = await personWithHistory('lnk');
    const sentOverSocket: string[] = [];
    alice.home.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => sentOverSocket.push(String(payload))),
    );
    const { fresh, dialog, code } = await newBrowserOnLinkScreen(alice.name);
    expect((await readKeyStore(fresh)).accounts[await currentUserId(fresh)]).toBeUndefined();

    // Typed loosely on the logged-in browser: lower case, spaces for dashes.
    await enterCode(alice.home, code.toLowerCase().replace(/-/g, ' '));
    const digitsThere = (await linkCard(alice.home).getByTestId('link-digits').textContent())!;
    const digitsHere = (await dialog.getByTestId('link-digits').textContent())!;
    expect(digitsThere).toMatch(/^\d{3} \d{3}$/);
    expect(digitsHere).toBe(digitsThere);

    await linkCard(alice.home).getByRole('button', { name: 'They match: send my keys' }).click();
    await linkCard(alice.home).getByText('The new browser has your keys', { exact: false }).waitFor();
    await dialog.getByText('This browser now has your keys', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    await fresh.setViewportSize(desktop);
    await openChat(fresh, alice.contact.name);
    for (const text of alice.history) await messageWithText(fresh, text).waitFor();
    expect(await fresh.getByText(noKeyHereText).count()).toBe(0);
    expect(await fresh.getByText('[Failed to decrypt]').count()).toBe(0);
    // Both keys (encryption and signing) kept as every key is kept: non-extractable, for this account.
    const keyStore = await readKeyStore(fresh);
    const userId = await currentUserId(fresh);
    for (const stored of [keyStore.accounts[userId], keyStore.signing[userId]])
      expect(stored).toEqual([
        expect.objectContaining({ isCryptoKey: true, extractable: false, exportRejected: true }),
      ]);
    // The keys crossed the socket only sealed: no frame carried a JWK's private fields.
    expect(sentOverSocket.some((frame) => frame.includes('link relay'))).toBe(true);
    for (const frame of sentOverSocket) expect(frame).not.toMatch(/"(d|p|q|dp|dq|qi|kty)"/);

    // What arrives next reads too.
    await sendMessage(alice.contact.page, 'After the link');
    await messageWithText(fresh, 'After the link').waitFor();
  });

  it('links by scanning the QR code with the camera', async () => {
    const feed = path.join(mkdtempSync(path.join(tmpdir(), 'veil-camera-')), 'camera.y4m');
    writeBlankFeed(feed);
    const alice = await personWithHistory('lnq', await veilWeb().newPageWithCamera(feed));
    const { fresh, dialog, code } = await newBrowserOnLinkScreen(alice.name);

    // The camera is pointed at the new browser's screen; the scan needs no typing.
    await alice.home.goto('/profile');
    writeQrFeed(feed, code);
    await linkCard(alice.home).getByRole('button', { name: 'Scan QR code' }).click();
    const digitsThere = (await linkCard(alice.home).getByTestId('link-digits').textContent())!;
    expect(await dialog.getByTestId('link-digits').textContent()).toBe(digitsThere);
    await linkCard(alice.home).getByRole('button', { name: 'They match: send my keys' }).click();
    await dialog.getByText('This browser now has your keys', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    await openChat(fresh, alice.contact.name);
    for (const text of alice.history) await messageWithText(fresh, text).waitFor();
  });

  it('refuses a typo and another account, and a cancel on either side ends the link with a way to start again', async () => {
    const alice = await personWithHistory('lnr');
    const { dialog, code } = await newBrowserOnLinkScreen(alice.name);

    // A typo is caught before asking the server.
    const typo = code.replace(/^./, (c) => (c === 'X' ? 'Y' : 'X'));
    await enterCode(alice.home, typo);
    await linkCard(alice.home).getByText('This is not a link code: check it for typos').waitFor();

    // Another account's browser cannot join: the link reads as nonexistent there.
    const mallory = alice.contact.page;
    await enterCode(mallory, code);
    await linkCard(mallory).getByRole('alert').getByText('No link has this code', { exact: false }).waitFor();

    // The owner's browser still can; "They differ" cancels on both sides.
    await enterCode(alice.home, code);
    await linkCard(alice.home).getByTestId('link-digits').waitFor();
    await linkCard(alice.home).getByRole('button', { name: 'They differ: cancel' }).click();
    await dialog.getByRole('alert').getByText('The other browser cancelled the link').waitFor();
    await linkCard(alice.home).getByLabel('Link code').waitFor();

    // The used code is refused; "Start again" gives a new one that works.
    await linkCard(alice.home).getByLabel('Link code').fill(code);
    await linkCard(alice.home).getByRole('button', { name: 'Link', exact: true }).click();
    await linkCard(alice.home)
      .getByRole('alert')
      .getByText('This link has already been used', { exact: false })
      .waitFor();
    await dialog.getByRole('button', { name: 'Start again' }).click();
    const next = (await dialog.getByTestId('link-code').textContent())!.trim();
    expect(next).not.toBe(code);
    await linkCard(alice.home).getByRole('button', { name: 'Enter another code' }).click();
    await linkCard(alice.home).getByLabel('Link code').fill(next);
    await linkCard(alice.home).getByRole('button', { name: 'Link', exact: true }).click();
    await linkCard(alice.home).getByRole('button', { name: 'They match: send my keys' }).click();
    await dialog.getByText('This browser now has your keys', { exact: false }).waitFor();
  });
});
