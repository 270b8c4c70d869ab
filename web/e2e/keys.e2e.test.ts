import {
  directChatRef,
  exportPrivateKeyJwk,
  exportPublicKeySpkiBase64,
  generateUserKeyPair,
  importPublicKeySpkiBase64,
  sealIndividualPayload,
  signMessage,
  encodeMessageContent,
  frankText,
} from '@veil/crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  currentUserId,
  declineRestore,
  login,
  logout,
  messageWithText,
  noKeyHereText,
  openChat,
  register,
  sayHi,
  sendMessage,
  signedUpPerson,
  signUpAndLogIn,
  uniqueName,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';
import { readKeyStore, writeLegacyKey } from './key-storage.ts';
import { createApi } from '../../apps/veil/test/support/api-client.ts';
import { createSigningUser } from '../../apps/veil/test/support/users.ts';

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

  /** `me`, logged in on `page`, says hi to `other` and writes; `other` answers. Returns the history. */
  const converse = async (page: Page, me: string, other: { page: Page; name: string }) => {
    const history = [`Hi ${other.name}`, `${me} writes`, `${other.name} answers ${me}`];
    await sayHi(page, other.name);
    await sendMessage(page, history[1]!);
    await messageWithText(page, history[1]!).waitFor();
    await openChat(other.page, me);
    await messageWithText(other.page, history[1]!).waitFor();
    await sendMessage(other.page, history[2]!);
    await messageWithText(page, history[2]!).waitFor();
    return history;
  };

  /**
   * Two accounts signed up one after the other in ONE browser context, each chatting with a
   * contact who has a browser of their own. The first logs out (keeping its keys, the default);
   * the second stays logged in.
   */
  const twoAccountsInOneBrowser = async (prefix: string) => {
    const contact = await signedUpPerson(veil, `${prefix}c`);
    const browser = await veil.newPage();
    const signUpAndChat = async (suffix: string) => {
      const name = uniqueName(`${prefix}${suffix}`);
      await signUpAndLogIn(browser, name);
      const id = await currentUserId(browser);
      return { name, id, history: await converse(browser, name, contact) };
    };
    const first = await signUpAndChat('1');
    await logout(browser);
    // Before keys were kept per account, this second registration replaced the first one's key.
    const second = await signUpAndChat('2');
    return { contact, browser, first, second };
  };

  /** Opens the chat with `title` and expects exactly `texts` to be readable, with no banner. */
  const expectReadable = async (page: Page, title: string, texts: string[]) => {
    await openChat(page, title);
    for (const text of texts) await messageWithText(page, text).waitFor();
    expect(await page.getByText('[Failed to decrypt]').count()).toBe(0);
    expect(await page.getByText(missingKey).count()).toBe(0);
  };

  /** Opens the chat with `title`: the missing-key banner, and every message saying this browser has no key. */
  const expectUnreadable = async (page: Page, title: string, messages: number) => {
    await openChat(page, title);
    await page.getByText(missingKey).waitFor();
    const texts = page.getByTestId('message-text');
    await expect.poll(() => texts.count()).toBe(messages);
    expect(new Set(await texts.allTextContents())).toEqual(new Set([noKeyHereText]));
  };

  it('keeps a key per account: a second account in the same browser leaves the first one readable', async () => {
    const { contact, browser, first, second } = await twoAccountsInOneBrowser('k');

    const stored = await readKeyStore(browser);
    expect(stored.entries).toEqual(
      [first.id, second.id]
        .flatMap((id) => [`key-log-made:${id}`, `private-keys:${id}`, `signing-keys:${id}`])
        .sort(),
    );
    for (const { id } of [first, second]) {
      expect(stored.accounts[id]).toHaveLength(1);
      // At rest: a non-extractable CryptoKey that only decrypts, never a JWK with `d`.
      expect(stored.accounts[id]![0]).toMatchObject({
        isCryptoKey: true,
        extractable: false,
        usages: ['decrypt'],
        exportRejected: true,
      });
    }
    expect(stored.accounts[first.id]![0]!.publicKey).not.toBe(stored.accounts[second.id]![0]!.publicKey);

    // Logging out keeps the keys by default: the first account logs back in and reads it all.
    await logout(browser);
    await login(browser, first.name, password);
    await expectReadable(browser, contact.name, first.history);
    // Each account: its encryption and signing keys, and the key-log entries its browsers made.
    expect((await readKeyStore(browser)).entries).toHaveLength(6);
  });

  it("removes only the current account's keys when asked at logout, with an accessible dialog", async () => {
    const { contact, browser, first, second } = await twoAccountsInOneBrowser('r');

    // The dialog: named, focus on its default action (keep the keys), Escape closes it and
    // gives the focus back to the Logout button.
    const logoutButton = browser.getByRole('button', { name: 'Logout' });
    await logoutButton.click();
    const dialog = browser.getByRole('dialog', { name: 'Log out' });
    const confirm = dialog.getByRole('button', { name: 'Log out', exact: true });
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    const removeKeys = dialog.getByRole('checkbox', { name: "Remove this browser's keys" });
    expect(await removeKeys.isChecked()).toBe(false);
    const hintId = await removeKeys.getAttribute('aria-describedby');
    expect(await browser.locator(`[id="${hintId}"]`).textContent()).toContain(
      'cannot be read on this browser again unless the key is restored',
    );
    await browser.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await logoutButton.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(new URL(browser.url()).pathname).toBe('/all-chats');

    // With the keyboard only: open, Shift+Tab to the checkbox, Space ticks it, and the
    // confirm button says what it will do.
    await browser.keyboard.press('Enter');
    await dialog.waitFor();
    await browser.keyboard.press('Shift+Tab');
    await browser.keyboard.press('Space');
    expect(await removeKeys.isChecked()).toBe(true);
    await browser.keyboard.press('Tab');
    const removing = dialog.getByRole('button', { name: 'Remove keys and log out', exact: true });
    expect(await removing.evaluate((el) => el === document.activeElement)).toBe(true);
    await browser.keyboard.press('Enter');
    await browser.waitForURL((url) => url.pathname === '/');

    // Only the second account's keys are gone.
    expect((await readKeyStore(browser)).entries).toEqual([
      `key-log-made:${first.id}`,
      `private-keys:${first.id}`,
      `signing-keys:${first.id}`,
    ]);
    await login(browser, second.name, password);
    await declineRestore(browser);
    await expectUnreadable(browser, contact.name, second.history.length);
    await logout(browser);
    await login(browser, first.name, password);
    await expectReadable(browser, contact.name, first.history);
  });

  /** An account registered outside any browser; its private key comes back as the JWK an earlier version stored. */
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
    return {
      name,
      id: body.data.user._id,
      publicKey: await exportPublicKeySpkiBase64(keys.publicKey),
      jwk: await exportPrivateKeyJwk(keys.privateKey),
    };
  };

  it("moves an earlier version's my-private-key to its own account only, and still decrypts", async () => {
    // History from before the upgrade: the earlier version sealed messages for the key an account
    // published. Today's browsers send only to a checked (signed) key log, and these accounts have
    // none yet, so Bob's messages are sealed and signed in Node, as his earlier client did.
    const api = createApi(veil.url);
    const bob = await createSigningUser(api, 'mbo');
    const owner = await registerElsewhere('mow');
    const stranger = await registerElsewhere('mst');
    const headOf = async (userId: string) =>
      (
        (await api.get(`/api/v1/users/${userId}/keyLog`, bob.accessToken)).body.data.entries as {
          hash: string;
        }[]
      ).at(-1)!.hash;
    const sendFromBob = async (to: { id: string; publicKey: string }, text: string) => {
      // Franked and signed as version 3, as every message from then on is.
      const franking = await frankText(text);
      const sealed = encodeMessageContent({ text, attachments: [], franking: franking.key });
      const { payload, keyCommitment } = await sealIndividualPayload(sealed, {
        recipientId: to.id,
        recipientKey: await importPublicKeySpkiBase64(to.publicKey),
        senderId: bob._id,
        senderKey: bob.keys.publicKey,
      });
      const clientMessageId = crypto.randomUUID();
      const createdAt = new Date().toISOString();
      const v2 = {
        keyCommitment,
        keyLogHeads: { [bob._id]: await headOf(bob._id), [to.id]: await headOf(to.id) },
        counter: 1,
        prev: null,
        franking: franking.tag,
      };
      const value = await signMessage(bob.signing.privateKey, {
        ciphertext: payload.encryptedMessage,
        iv: payload.iv,
        chat: directChatRef(bob._id, to.id),
        senderId: bob._id,
        clientMessageId,
        replyTo: null,
        createdAt,
        encryptedKeys: {
          [to.id]: payload.encryptedAESKeyForRecipient,
          [bob._id]: payload.encryptedAESKeyForSender,
        },
        v2,
      });
      const sent = await api.post(
        `/api/v1/message/sendIndividualMessage/${to.id}`,
        { ...payload, clientMessageId, signature: { value, signedAt: createdAt, version: 3, ...v2 } },
        bob.accessToken,
      );
      expect(sent.status).toBe(201);
    };
    await sendFromBob(owner, 'Written before the upgrade');
    await sendFromBob(stranger, 'Also before the upgrade');

    // A browser as the earlier version left it: the owner's key as a JWK in `my-private-key`.
    const upgraded = await veil.newPage();
    await upgraded.goto('/');
    await writeLegacyKey(upgraded, owner.jwk);

    // Registering another account here leaves it alone.
    const newcomer = uniqueName('mne');
    await register(upgraded, newcomer, password);
    expect((await readKeyStore(upgraded)).legacy?.n).toBe(owner.jwk.n);
    await logout(upgraded);

    // Someone else logs in: the key is not theirs (n and e differ from their published key), so
    // it stays where it is and they have no key here.
    await login(upgraded, stranger.name, password);
    await expectUnreadable(upgraded, bob.username, 1);
    let stored = await readKeyStore(upgraded);
    expect(stored.legacy).toEqual(owner.jwk);
    expect(stored.accounts[stranger.id]).toBeUndefined();
    await logout(upgraded);

    // The owner logs in: the key moves to the account, non-extractable, and history decrypts.
    await login(upgraded, owner.name, password);
    await expectReadable(upgraded, bob.username, ['Written before the upgrade']);
    stored = await readKeyStore(upgraded);
    expect(stored.legacy).toBeNull();
    expect(stored.entries).not.toContain('my-private-key');
    expect(stored.accounts[owner.id]).toEqual([
      expect.objectContaining({ isCryptoKey: true, extractable: false, exportRejected: true }),
    ]);

    // And it stays: a reload (a new session start from storage) still reads.
    await upgraded.reload();
    await expectReadable(upgraded, bob.username, ['Written before the upgrade']);
  });
});
