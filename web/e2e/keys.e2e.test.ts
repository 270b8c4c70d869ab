import { exportPrivateKeyJwk, exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  currentUserId,
  login,
  logout,
  messageWithText,
  openChat,
  register,
  sayHi,
  sendMessage,
  signUpAndLogIn,
  uniqueName,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';
import { readKeyStore, writeLegacyKey } from './key-storage.ts';

const password = 'correct horse 1';
const missingKey = 'Private key not found in IndexedDB';

/**
 * Private keys in the browser: one per account, several accounts in one browser, never
 * overwritten, non-extractable at rest, removable at logout, and moved over from the single
 * `my-private-key` entry that earlier versions wrote.
 */
describe('private keys in the browser', { timeout: 180_000 }, () => {
  let veil: VeilWeb;
  beforeAll(async () => {
    veil = await startVeilWeb();
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(() => veil?.stop());

  /** Someone in a browser context of their own, signed up through the UI. */
  const contact = async (prefix: string) => {
    const page = await veil.newPage();
    const name = uniqueName(prefix);
    await signUpAndLogIn(page, name);
    return { page, name };
  };

  /** `page` (logged in) says hi to `other` and writes `text`; `other` answers `answer`. */
  const converse = async (
    page: Page,
    other: { page: Page; name: string },
    text: string,
    answer: string,
    myName: string,
  ) => {
    await sayHi(page, other.name);
    await sendMessage(page, text);
    await messageWithText(page, text).waitFor();
    await openChat(other.page, myName);
    await messageWithText(other.page, text).waitFor();
    await sendMessage(other.page, answer);
    await messageWithText(page, answer).waitFor();
  };

  /** Opens the chat with `title` and expects exactly `texts` to be readable, with no banner. */
  const expectReadable = async (page: Page, title: string, texts: string[]) => {
    await openChat(page, title);
    for (const text of texts) await messageWithText(page, text).waitFor();
    expect(await page.getByText('[Failed to decrypt]').count()).toBe(0);
    expect(await page.getByText(missingKey).count()).toBe(0);
  };

  /** Opens the chat with `title`: the missing-key banner, and every message unreadable. */
  const expectUnreadable = async (page: Page, title: string, messages: number) => {
    await openChat(page, title);
    await page.getByText(missingKey).waitFor();
    const texts = page.getByTestId('message-text');
    await expect.poll(() => texts.count()).toBe(messages);
    expect(new Set(await texts.allTextContents())).toEqual(new Set(['[Failed to decrypt]']));
  };

  it('keeps a key per account: a second account in the same browser leaves the first one readable', async () => {
    const bob = await contact('kbo');
    const shared = await veil.newPage();
    const alice = uniqueName('kal');
    const carol = uniqueName('kca');

    await signUpAndLogIn(shared, alice);
    const aliceId = await currentUserId(shared);
    await converse(shared, bob, 'Alice writes', 'Bob answers Alice', alice);
    await logout(shared);

    // Carol registers in the very same browser (before, this overwrote Alice's key).
    await signUpAndLogIn(shared, carol);
    const carolId = await currentUserId(shared);
    await converse(shared, bob, 'Carol writes', 'Bob answers Carol', carol);

    const stored = await readKeyStore(shared);
    expect(stored.entries).toEqual([`private-keys:${aliceId}`, `private-keys:${carolId}`].sort());
    for (const id of [aliceId, carolId]) {
      expect(stored.accounts[id]).toHaveLength(1);
      // At rest: a non-extractable CryptoKey that only decrypts, never a JWK with `d`.
      expect(stored.accounts[id]![0]).toMatchObject({
        isCryptoKey: true,
        extractable: false,
        usages: ['decrypt'],
        exportRejected: true,
      });
    }
    expect(stored.accounts[aliceId]![0]!.publicKey).not.toBe(stored.accounts[carolId]![0]!.publicKey);

    // Logging out keeps the keys by default: Alice logs back in and reads her whole history.
    await logout(shared);
    await login(shared, alice, password);
    await expectReadable(shared, bob.name, [`Hi ${bob.name}`, 'Alice writes', 'Bob answers Alice']);
    expect((await readKeyStore(shared)).entries).toHaveLength(2);
  });

  it("removes only the current account's keys when asked at logout, with an accessible dialog", async () => {
    const bob = await contact('rbo');
    const shared = await veil.newPage();
    const dan = uniqueName('rda');
    const erin = uniqueName('rer');

    await signUpAndLogIn(shared, erin);
    const erinId = await currentUserId(shared);
    await converse(shared, bob, 'Erin writes', 'Bob answers Erin', erin);
    await logout(shared);
    await signUpAndLogIn(shared, dan);
    await converse(shared, bob, 'Dan writes', 'Bob answers Dan', dan);

    // The dialog: named, focus on its default action (keep the keys), Escape closes it and
    // gives the focus back to the Logout button.
    const logoutButton = shared.getByRole('button', { name: 'Logout' });
    await logoutButton.click();
    const dialog = shared.getByRole('dialog', { name: 'Log out' });
    const confirm = dialog.getByRole('button', { name: 'Log out', exact: true });
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    const removeKeys = dialog.getByRole('checkbox', { name: "Remove this browser's keys" });
    expect(await removeKeys.isChecked()).toBe(false);
    const hintId = await removeKeys.getAttribute('aria-describedby');
    expect(await shared.locator(`[id="${hintId}"]`).textContent()).toContain(
      'cannot be read on this browser again unless the key is restored',
    );
    await shared.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await logoutButton.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(new URL(shared.url()).pathname).toBe('/all-chats');

    // With the keyboard only: open, Shift+Tab to the checkbox, Space ticks it, and the
    // confirm button says what it will do.
    await shared.keyboard.press('Enter');
    await dialog.waitFor();
    await shared.keyboard.press('Shift+Tab');
    await shared.keyboard.press('Space');
    expect(await removeKeys.isChecked()).toBe(true);
    await shared.keyboard.press('Tab');
    const removing = dialog.getByRole('button', { name: 'Remove keys and log out', exact: true });
    expect(await removing.evaluate((el) => el === document.activeElement)).toBe(true);
    await shared.keyboard.press('Enter');
    await shared.waitForURL((url) => url.pathname === '/');

    // Only Dan's key is gone.
    expect((await readKeyStore(shared)).entries).toEqual([`private-keys:${erinId}`]);
    await login(shared, dan, password);
    await expectUnreadable(shared, bob.name, 3);
    await logout(shared);
    await login(shared, erin, password);
    await expectReadable(shared, bob.name, [`Hi ${bob.name}`, 'Erin writes', 'Bob answers Erin']);
  });

  /** An account registered the way earlier versions did; its private JWK is returned, not stored. */
  const registerElsewhere = async (prefix: string) => {
    const keys = await generateUserKeyPair();
    const name = uniqueName(prefix);
    const form = new FormData();
    form.append('username', name);
    form.append('password', password);
    form.append('publicKey', await exportPublicKeySpkiBase64(keys.publicKey));
    const response = await fetch(`${veil.url}/api/v1/user/register`, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { data: { user: { _id: string } } };
    return { name, id: body.data.user._id, jwk: await exportPrivateKeyJwk(keys.privateKey) };
  };

  it("moves an earlier version's my-private-key to its own account only, and still decrypts", async () => {
    const bob = await contact('mbo');
    const owner = await registerElsewhere('mow');
    const stranger = await registerElsewhere('mst');
    await sayHi(bob.page, owner.name);
    await sendMessage(bob.page, 'Written before the upgrade');
    await messageWithText(bob.page, 'Written before the upgrade').waitFor();
    await sayHi(bob.page, stranger.name);

    // A browser as the earlier version left it: the owner's key as a JWK in `my-private-key`.
    const upgraded = await veil.newPage();
    await upgraded.goto('/');
    await writeLegacyKey(upgraded, owner.jwk);

    // Registering another account here leaves it alone.
    const newcomer = uniqueName('mne');
    await register(upgraded, newcomer, password);
    expect((await readKeyStore(upgraded)).legacy?.n).toBe(owner.jwk.n);

    // Someone else logs in: the key is not theirs (n and e differ from their published key), so
    // it stays where it is and they have no key here.
    await login(upgraded, stranger.name, password);
    await expectUnreadable(upgraded, bob.name, 1);
    let stored = await readKeyStore(upgraded);
    expect(stored.legacy).toEqual(owner.jwk);
    expect(stored.accounts[stranger.id]).toBeUndefined();
    await logout(upgraded);

    // The owner logs in: the key moves to the account, non-extractable, and history decrypts.
    await login(upgraded, owner.name, password);
    await expectReadable(upgraded, bob.name, [`Hi ${owner.name}`, 'Written before the upgrade']);
    stored = await readKeyStore(upgraded);
    expect(stored.legacy).toBeNull();
    expect(stored.entries).not.toContain('my-private-key');
    expect(stored.accounts[owner.id]).toEqual([
      expect.objectContaining({ isCryptoKey: true, extractable: false, exportRejected: true }),
    ]);

    // And it stays: a reload (a new session start from storage) still reads.
    await upgraded.reload();
    await expectReadable(upgraded, bob.name, ['Written before the upgrade']);
  });
});
