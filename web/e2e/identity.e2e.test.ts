import {
  createKeyBackup,
  exportPrivateKeyJwk,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  isSignedKeyLogEntry,
  signKeyLogEntry,
  type KeyLogEntry,
} from '@veil/crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  currentUserId,
  eventually,
  login,
  messageWithText,
  openChat,
  openChatFromUsers,
  restoreDialog,
  saveRecoveryKey,
  sayHi,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { readKeyStore, writeLegacyKey } from './key-storage.ts';

const password = 'correct horse 1';

/** Waits until the element's text is `expected` (a string: exactly; a pattern: matching). */
const expectText = (locator: Locator, expected: string | RegExp) =>
  expect
    .poll(async () => (await locator.innerText()).trim())
    [typeof expected === 'string' ? 'toBe' : 'toMatch'](expected);

/** Whether the element is drawn in the theme's danger red. */
const isDangerColoured = (locator: Locator) =>
  locator.evaluate((element) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--danger)';
    document.body.append(probe);
    const danger = getComputedStyle(probe).color;
    probe.remove();
    return getComputedStyle(element).color === danger;
  });

/**
 * Identity keys in real Chromium, each person in a browser context of their own: the same safety
 * number on both sides, a key reset that changes it, removes a verification and is announced in
 * the chat, a key log rewritten by the server caught as a red warning, and a signing key added to
 * an account that predates them.
 */
describe('identity keys, key log and safety numbers (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb();

  const verifyDialog = (page: Page) => page.getByRole('dialog', { name: 'Verify safety number' });

  /** Opens "Verify safety number" in the open chat and reads the 60 digits. */
  const readSafetyNumber = async (page: Page): Promise<string> => {
    await page.getByRole('button', { name: 'Verify safety number' }).click();
    const digits = verifyDialog(page).getByTestId('safety-number');
    await digits.waitFor();
    await verifyDialog(page)
      .getByRole('img', { name: /QR code of the safety number/ })
      .waitFor();
    return (await digits.innerText()).replace(/\s+/g, ' ').trim();
  };
  const closeVerify = async (page: Page) => {
    await verifyDialog(page).getByRole('button', { name: 'Close' }).click();
    await verifyDialog(page).waitFor({ state: 'detached' });
  };

  /** Two people with a chat between them, open on both sides. */
  const pair = async (prefix: string) => {
    const alice = await signedUpPerson(veil(), `${prefix}a`);
    const bob = await signedUpPerson(veil(), `${prefix}b`);
    await sayHi(alice.page, bob.name);
    await messageWithText(alice.page, `Hi ${bob.name}`).waitFor();
    await openChat(bob.page, alice.name);
    return { alice, bob };
  };

  /** Opens the chat again after a reload, so its members' key logs are fetched and checked anew. */
  const reopen = async (page: Page, title: string) => {
    await page.reload();
    await openChat(page, title);
  };

  it('shows both people the same safety number, and a key reset changes it, unverifies and is announced', async () => {
    const { alice, bob } = await pair('sn');
    const seenByAlice = await readSafetyNumber(alice.page);
    const seenByBob = await readSafetyNumber(bob.page);
    expect(seenByAlice).toMatch(/^(\d{5} ){11}\d{5}$/);
    expect(seenByBob).toBe(seenByAlice);
    await closeVerify(bob.page);

    // Alice compared and marks Bob verified.
    await verifyDialog(alice.page).getByRole('button', { name: 'Mark as verified' }).click();
    await expectText(verifyDialog(alice.page).getByTestId('verification-state'), `${bob.name} is verified.`);
    await closeVerify(alice.page);
    await alice.page.getByText('Verified', { exact: true }).waitFor();

    // Bob lost his key: he starts fresh from his profile.
    await bob.page.goto('/profile');
    await bob.page.getByRole('button', { name: 'I lost my key: start fresh' }).click();
    const reset = bob.page.getByRole('dialog', { name: 'I lost my key: start fresh' });
    await reset.getByText(/stay unreadable in every browser that does not have your old key/).waitFor();
    await reset.getByRole('button', { name: 'Start fresh' }).click();
    const newRecoveryKey = await saveRecoveryKey(bob.page, 'Reset my keys');
    await bob.page.getByText('Your account has new keys').waitFor();

    // Alice's chat announces the change and no longer calls Bob verified; the number changed.
    await reopen(alice.page, bob.name);
    await expectText(
      alice.page.getByTestId('key-changed-notice'),
      new RegExp(`^${bob.name}'s key changed on `),
    );
    await alice.page.getByText(`${bob.name} is no longer verified`).waitFor();
    await expect.poll(() => alice.page.getByText('Verified', { exact: true }).count()).toBe(0);
    const afterResetByAlice = await readSafetyNumber(alice.page);
    expect(afterResetByAlice).not.toBe(seenByAlice);
    await verifyDialog(alice.page)
      .getByText(/so the verification was removed/)
      .waitFor();
    await expectText(
      verifyDialog(alice.page).getByTestId('verification-state'),
      `${bob.name} is not verified.`,
    );
    await openChat(bob.page, alice.name);
    expect(await readSafetyNumber(bob.page)).toBe(afterResetByAlice);

    // Messages to Bob's new key still reach him; a new browser restored with the new recovery key
    // reads them, and the greeting from before the reset too: Bob's first browser, which kept the
    // old key, re-wrapped his copy of it for the new one.
    await closeVerify(alice.page);
    await sendMessage(alice.page, 'After your reset');
    await messageWithText(bob.page, 'After your reset').waitFor();
    const bobElsewhere = await veil().newPage();
    await login(bobElsewhere, bob.name, password);
    const restore = restoreDialog(bobElsewhere);
    await restore.getByLabel(/Recovery key/).fill(newRecoveryKey);
    await restore.getByRole('button', { name: 'Restore' }).click();
    await restore.waitFor({ state: 'detached' });
    await openChat(bobElsewhere, alice.name);
    await messageWithText(bobElsewhere, 'After your reset').waitFor();
    await messageWithText(bobElsewhere, `Hi ${bob.name}`).waitFor();
  });

  it('re-wraps the history for the new key from the browser that kept the old one after a reset elsewhere', async () => {
    const { alice, bob } = await pair('rwk');
    await sendMessage(bob.page, 'Before the reset');
    await messageWithText(alice.page, 'Before the reset').waitFor();

    // Alice, on a browser without her key and without her recovery key, starts fresh there.
    const elsewhere = await veil().newPage();
    await login(elsewhere, alice.name, password);
    await restoreDialog(elsewhere).getByRole('button', { name: 'I lost my key: start fresh' }).click();
    const reset = elsewhere.getByRole('dialog', { name: 'I lost my key: start fresh' });
    await reset.getByRole('button', { name: 'Start fresh' }).click();
    await saveRecoveryKey(elsewhere, 'Reset my keys');
    await openChat(elsewhere, bob.name);
    await expect.poll(() => elsewhere.getByText('Sent before your key was reset').count()).toBe(2);

    // Her first browser still holds the old key: once it opens again, it re-wraps her copies of
    // the old messages' keys for the new key, and the new browser reads them.
    await alice.page.reload();
    await eventually(async () => {
      await reopen(elsewhere, bob.name);
      await messageWithText(elsewhere, 'Before the reset').waitFor({ timeout: 2_000 });
    });
    await messageWithText(elsewhere, `Hi ${bob.name}`).waitFor();
    expect(await elsewhere.getByText('Sent before your key was reset').count()).toBe(0);
    // The first browser reads everything as before, with the old key it kept.
    await openChat(alice.page, bob.name);
    await messageWithText(alice.page, 'Before the reset').waitFor();
  });

  it('warns in red when the server rewrites a key log this browser has seen', async () => {
    const { alice, bob } = await pair('rw');
    await alice.page.getByRole('button', { name: 'Verify safety number' }).waitFor();
    const bobId = await currentUserId(bob.page);

    // A malicious server replaces Bob's keys with its own and rewrites his log to match, as if
    // those had been his keys from the start.
    const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const forged = {
      encryptionKey: await exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
    };
    // Signed with its own key, as a server can sign any log it makes up from the start.
    const entry = await signKeyLogEntry(null, { ...forged, reason: 'registered' }, signing.privateKey);
    const logs = await veil().readStore.collection<{ _id: string; entries: KeyLogEntry[] }>('user_key_logs');
    const directory = await veil().readStore.collection<{
      _id: string;
      publicKey: string;
      signingKey: string;
    }>('user_directory');
    await logs.put({ _id: bobId, entries: [entry] });
    const bobDoc = (await directory.get(bobId))!;
    await directory.put({ ...bobDoc, publicKey: forged.encryptionKey, signingKey: forged.signingKey });

    await reopen(alice.page, bob.name);
    const warning = alice.page
      .getByRole('alert')
      .filter({ hasText: `${bob.name}'s keys could not be confirmed` });
    await warning.waitFor();
    await expectText(warning, /rewritten/);
    expect(await isDangerColoured(warning)).toBe(true);
    await expect.poll(() => alice.page.getByRole('button', { name: 'Verify safety number' }).count()).toBe(0);

    // A key swapped without a log entry is caught by anyone: it is not the log's last entry's.
    const carol = await signedUpPerson(veil(), 'rwc');
    await sayHi(carol.page, alice.name);
    const aliceId = await currentUserId(alice.page);
    const aliceDoc = (await directory.get(aliceId))!;
    await directory.put({ ...aliceDoc, publicKey: forged.encryptionKey });
    await reopen(carol.page, alice.name);
    await expectText(
      carol.page.getByRole('alert').filter({ hasText: `${alice.name}'s keys could not be confirmed` }),
      /not the last one in their key history/,
    );
  });

  it('warns when the server appends an entry that swaps keys without a reset, or backdates one', async () => {
    const { alice, bob } = await pair('ap');
    await alice.page.getByRole('button', { name: 'Verify safety number' }).waitFor();
    const bobId = await currentUserId(bob.page);
    const logs = await veil().readStore.collection<{ _id: string; entries: KeyLogEntry[] }>('user_key_logs');
    const directory = await veil().readStore.collection<{
      _id: string;
      publicKey: string;
      signingKey: string;
    }>('user_directory');
    const honest = (await logs.get(bobId))!;
    const bobDoc = (await directory.get(bobId))!;
    const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const forged = {
      encryptionKey: await exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
    };
    /** The server appends `entry` to Bob's log (it extends what Alice pinned) and serves its keys. */
    const serve = async (entry: KeyLogEntry) => {
      await logs.put({ ...honest, entries: [...honest.entries, entry] });
      await directory.put({ ...bobDoc, publicKey: entry.encryptionKey, signingKey: entry.signingKey! });
    };
    const warning = alice.page
      .getByRole('alert')
      .filter({ hasText: `${bob.name}'s keys could not be confirmed` });
    const head = honest.entries.at(-1)!;

    // Its own keys under a reason that may not change keys, signed with its own key.
    await serve(await signKeyLogEntry(head, { ...forged, reason: 'attested' }, signing.privateKey));
    await reopen(alice.page, bob.name);
    await expectText(warning, /changes keys it may not change/);
    expect(await isDangerColoured(warning)).toBe(true);
    expect(await alice.page.getByTestId('key-changed-notice').count()).toBe(0);

    // A reset dated before Bob's last entry, to pass messages off as signed by its key back then.
    const backdated = new Date(Date.parse(head.at) - 24 * 3_600_000).toISOString();
    await serve(
      await signKeyLogEntry(head, { ...forged, reason: 'reset', at: backdated }, signing.privateKey),
    );
    await reopen(alice.page, bob.name);
    await expectText(warning, /dated before the one it follows/);
  });

  it('gives an account registered before signing keys one at its next login in a browser holding its key, signed; until then its keys are "not signed yet"', async () => {
    const keys = await generateUserKeyPair();
    const name = uniqueName('sk');
    const form = new FormData();
    form.append('username', name);
    form.append('password', password);
    const publicKey = await exportPublicKeySpkiBase64(keys.publicKey);
    form.append('publicKey', publicKey);
    // Its backup holds the encryption key alone, as every backup did before signing keys.
    const backup = await createKeyBackup({
      privateKey: keys.privateKey,
      publicKey,
      recoveryKey: generateRecoveryKey(),
    });
    form.append('keyBackup', JSON.stringify(backup));
    const registered = await fetch(`${veil().url}/api/v1/user/register`, { method: 'POST', body: form });
    expect(registered.status).toBe(201);
    const userId = ((await registered.json()) as { data: { user: { _id: string } } }).data.user._id;

    // Its log is the server's unsigned entry: a contact is told its keys are not signed yet, and
    // cannot send to it, since nothing is sealed for keys a checked log does not name.
    const alice = await signedUpPerson(veil(), 'ska');
    await openChatFromUsers(alice.page, name);
    const notSigned = alice.page.getByRole('alert').filter({ hasText: `${name}'s keys are not signed yet` });
    await notSigned.waitFor();
    await alice.page
      .getByTestId('key-check-block')
      .filter({
        hasText: `${name}'s keys could not be checked: the key history is not signed by its owner yet`,
      })
      .waitFor();

    const page = await veil().newPage();
    await page.goto('/');
    await writeLegacyKey(page, await exportPrivateKeyJwk(keys.privateKey));
    await login(page, name, password);

    const logs = await veil().readStore.collection<{ _id: string; entries: KeyLogEntry[] }>('user_key_logs');
    await eventually(async () => {
      const reasons = (await logs.get(userId))?.entries.map((e) => e.reason);
      expect(reasons).toEqual(['registered', 'signing-key-added']);
    });
    // The server's unsigned entry, then the browser's, signed with the key it adds.
    const entries = (await logs.get(userId))!.entries;
    expect(entries.map((entry) => isSignedKeyLogEntry(entry))).toEqual([false, true]);
    // Signed now: the contact's notice goes at the next check, and the first message is sent.
    await sayHi(alice.page, name);
    await alice.page.getByRole('button', { name: 'Verify safety number' }).waitFor();
    expect(await notSigned.count()).toBe(0);
    // The profile says the backup lacks it, and offers a new recovery key for both.
    await page.goto('/profile');
    await page.getByTestId('backup-lacks-signing-key').waitFor();
    await page.getByRole('button', { name: 'New recovery key' }).waitFor();

    // Kept as the encryption key is: non-extractable, for signing only.
    expect((await readKeyStore(page)).signing[userId]).toMatchObject([
      { isCryptoKey: true, extractable: false, usages: ['sign'], exportRejected: true },
    ]);
  });
});
