import { readFile } from 'node:fs/promises';
import { openKeyBackupBundle, signKeyLogEntry } from '@veil/crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  currentUserId,
  declineRestore,
  login,
  messageWithText,
  noKeyHereText,
  openChat,
  register,
  restoreDialog,
  saveRecoveryKey,
  sayHi,
  sendMessage,
  signedUpPerson,
  signUpAndLogIn,
  uniqueName,
  type RecoveryStep,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';
import { pbkdf2KeyBackup } from '../../packages/crypto/test/pbkdf2-key-backup.fixture.ts';
import { readKeyStore } from './key-storage.ts';

const password = 'correct horse 1';
const missingKey = 'Private key not found in IndexedDB';

/**
 * Encrypted key backup in real Chromium: the recovery key at registration, "Restore your
 * messages" in another browser (a fresh browser context) with the recovery key or the
 * passphrase, wrong codes, "Not now", the prompt for accounts without a backup, and a passphrase
 * change. Every request body a page sends is recorded, and none carries a secret.
 */
describe('encrypted key backup (browser)', { timeout: 180_000 }, () => {
  let veil: VeilWeb;
  const sentBodies: string[] = [];
  beforeAll(async () => {
    veil = await startVeilWeb();
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(() => veil?.stop());

  /** A browser of its own whose request bodies are kept for the secrets check. */
  const newBrowser = async (): Promise<Page> => {
    const page = await veil.newPage();
    page.on('request', (request) => {
      const body = request.postData();
      if (body) sentBodies.push(body);
    });
    return page;
  };

  /** No request any page sent carried a secret, in any of the forms it was shown or typed. */
  const expectNeverSent = (...secrets: string[]) => {
    const forms = secrets.flatMap((s) => [s, s.replace(/-/g, ''), s.replace(/-/g, ' ').toLowerCase()]);
    for (const body of sentBodies)
      for (const form of forms) expect(body.includes(form), `a request carried ${form}`).toBe(false);
  };

  /** Someone who signs up in a browser of their own, chats with a contact, and has a history to restore. */
  const personWithHistory = async (prefix: string, recovery: RecoveryStep = {}) => {
    const contact = await signedUpPerson(veil, `${prefix}c`);
    const page = await newBrowser();
    const name = uniqueName(prefix);
    const recoveryKey = await signUpAndLogIn(page, name, password, recovery);
    const history = [`Hi ${contact.name}`, `${name} writes`, `${contact.name} answers`];
    await sayHi(page, contact.name);
    await sendMessage(page, history[1]!);
    await messageWithText(page, history[1]!).waitFor();
    await openChat(contact.page, name);
    await sendMessage(contact.page, history[2]!);
    await messageWithText(page, history[2]!).waitFor();
    return { page, name, id: await currentUserId(page), recoveryKey: recoveryKey!, contact, history };
  };

  const expectReadable = async (page: Page, title: string, texts: string[]) => {
    await openChat(page, title);
    for (const text of texts) await messageWithText(page, text).waitFor();
    expect(await page.getByText('[Failed to decrypt]').count()).toBe(0);
    expect(await page.getByText(noKeyHereText).count()).toBe(0);
    expect(await page.getByText(missingKey).count()).toBe(0);
  };

  const secretField = (page: Page) => restoreDialog(page).getByLabel(/^Recovery key/);

  it('shows the recovery key once at registration, with a download, and asks for two groups back', async () => {
    const page = await newBrowser();
    const name = uniqueName('kbr');
    await page.goto('/register');
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: 'Save your recovery key' }).waitFor();

    const recoveryKey = (await page.getByTestId('recovery-key').textContent())!.trim();
    expect(recoveryKey).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){7}$/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download (.txt)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`veil-recovery-key-${name}.txt`);
    const file = await readFile((await download.path())!, 'utf8');
    expect(file).toContain(recoveryKey);
    expect(file).toContain(name);

    // Two of the 8 groups must be typed back; wrong ones stop it with a clear message.
    const groupFields = page.getByLabel(/^Group \d$/);
    expect(await groupFields.count()).toBe(2);
    for (const field of await groupFields.all()) await field.fill('ZZZZ');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect.poll(() => page.getByText(/^This is not group \d$/).count()).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/register');

    // The right groups, typed in lower case: it goes on, and the account starts with a backup.
    const groups = recoveryKey.split('-');
    for (const field of await groupFields.all()) {
      const number = Number((await field.getAttribute('name'))!.replace('group-', ''));
      await field.fill(groups[number - 1]!.toLowerCase());
    }
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.waitForURL('**/all-chats');
    await page.goto('/profile');
    await page.getByTestId('backup-state').getByText('Your key is backed up.', { exact: false }).waitFor();
    expect(await page.getByText('Protect your messages').count()).toBe(0);
    expectNeverSent(recoveryKey);
  });

  it('restores on another browser with the recovery key (typed loosely), and history reads', async () => {
    const alice = await personWithHistory('kbk');
    const elsewhere = await newBrowser();
    await login(elsewhere, alice.name, password);
    await restoreDialog(elsewhere).waitFor();
    expect((await readKeyStore(elsewhere)).accounts[alice.id]).toBeUndefined();

    const loosely = alice.recoveryKey.toLowerCase().replace(/-/g, ' ');
    await secretField(elsewhere).fill(loosely);
    await restoreDialog(elsewhere).getByRole('button', { name: 'Restore' }).click();
    await restoreDialog(elsewhere).waitFor({ state: 'detached' });

    await expectReadable(elsewhere, alice.contact.name, alice.history);
    // Restored as the browser keeps keys: one, non-extractable, for this account only.
    const stored = await readKeyStore(elsewhere);
    expect(stored.accounts[alice.id]).toEqual([
      expect.objectContaining({ isCryptoKey: true, extractable: false, exportRejected: true }),
    ]);
    // The same session keeps reading what arrives next.
    await sendMessage(alice.contact.page, 'After the restore');
    await messageWithText(elsewhere, 'After the restore').waitFor();
    expectNeverSent(alice.recoveryKey);
  });

  it('answers a wrong code clearly, waits longer after each, and writes nothing', async () => {
    const alice = await personWithHistory('kbw');
    const elsewhere = await newBrowser();
    const downloads: string[] = [];
    elsewhere.on('request', (r) => r.url().endsWith('/api/v1/user/keyBackup') && downloads.push(r.method()));
    await login(elsewhere, alice.name, password);
    const dialog = restoreDialog(elsewhere);
    await dialog.waitFor();
    const restoreButton = dialog.getByRole('button', { name: /^Restore$|^Try again in/ });

    const wrongKey = 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG-HHHH';
    await secretField(elsewhere).fill(wrongKey);
    await restoreButton.click();
    await dialog
      .getByRole('alert')
      .getByText('That recovery key does not open your backup.', { exact: false })
      .waitFor();
    await dialog.getByRole('button', { name: /^Try again in [12] s$/ }).waitFor();
    expect(await dialog.getByRole('button', { name: /^Try again in/ }).isDisabled()).toBe(true);

    // The wait grows: 1 s after the first wrong code, 2 s after the second.
    await dialog.getByRole('button', { name: 'Restore', exact: true }).waitFor();
    await restoreButton.click();
    await dialog.getByRole('button', { name: /^Try again in [2] s$/ }).waitFor();

    // Not a recovery key at all (this backup has no passphrase): said so.
    await dialog.getByRole('button', { name: 'Restore', exact: true }).waitFor({ timeout: 5000 });
    await secretField(elsewhere).fill('hello there');
    await restoreButton.click();
    await dialog
      .getByText('That is not a recovery key: it has 32 letters and digits, in 8 groups of 4.')
      .waitFor();

    // Nothing was written, and the backup was downloaded once for all those tries.
    expect((await readKeyStore(elsewhere)).entries).toEqual([]);
    expect(downloads).toEqual(['GET']);

    await dialog.getByRole('button', { name: 'Restore', exact: true }).waitFor({ timeout: 10_000 });
    await secretField(elsewhere).fill(alice.recoveryKey);
    await restoreButton.click();
    await dialog.waitFor({ state: 'detached' });
    await expectReadable(elsewhere, alice.contact.name, alice.history);
  });

  it('"Not now" leaves honest messages and a way back; "restore it" restores', async () => {
    const alice = await personWithHistory('kbn');
    const elsewhere = await newBrowser();
    await login(elsewhere, alice.name, password);
    await declineRestore(elsewhere);

    await openChat(elsewhere, alice.contact.name);
    const notice = elsewhere.getByRole('alert').filter({ hasText: missingKey });
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Restore your messages' }).waitFor();
    const texts = elsewhere.getByTestId('message-text');
    await expect.poll(() => texts.count()).toBe(alice.history.length);
    expect(new Set(await texts.allTextContents())).toEqual(new Set([noKeyHereText]));
    expect(await elsewhere.getByText('[Failed to decrypt]').count()).toBe(0);

    // A reload does not open the screen again by itself; the message's own link does.
    await elsewhere.reload();
    await openChat(elsewhere, alice.contact.name);
    expect(await restoreDialog(elsewhere).count()).toBe(0);
    await messageWithText(elsewhere, noKeyHereText)
      .first()
      .getByRole('button', { name: 'restore it' })
      .click();
    await secretField(elsewhere).fill(alice.recoveryKey);
    await restoreDialog(elsewhere).getByRole('button', { name: 'Restore' }).click();
    await restoreDialog(elsewhere).waitFor({ state: 'detached' });
    await expectReadable(elsewhere, alice.contact.name, alice.history);
  });

  it('restores with the passphrase after changing it in the profile, showing progress while it unlocks', async () => {
    const first = 'first backup passphrase';
    const second = 'second backup passphrase';
    const alice = await personWithHistory('kbp', { passphrase: first });

    // Change it where the key lives: the recovery key unlocks the backup, the new passphrase is set.
    const home = alice.page;
    await home.goto('/profile');
    await home.getByText('It opens with your recovery key or your passphrase.').waitFor();
    await home.getByRole('button', { name: 'Change passphrase' }).click();
    const change = home.getByRole('dialog', { name: 'Change backup passphrase' });
    await change.getByLabel('Recovery key or current passphrase').fill(alice.recoveryKey);
    await change.getByLabel('New passphrase', { exact: true }).fill(second);
    await change.getByLabel('Repeat new passphrase').fill(second);
    await change.getByRole('button', { name: 'Save passphrase' }).click();
    await home.getByText('Your backup passphrase is saved.').waitFor();

    // Another browser: the old passphrase no longer opens it, the new one does, with progress shown.
    const elsewhere = await newBrowser();
    await elsewhere.route('**/api/v1/user/keyBackup', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await login(elsewhere, alice.name, password);
    const dialog = restoreDialog(elsewhere);
    await dialog.getByLabel('Recovery key or passphrase').fill(first);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await dialog.getByRole('progressbar', { name: 'Unlocking your key' }).waitFor();
    await dialog.getByText('That passphrase does not open your backup.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Restore', exact: true }).waitFor();
    await dialog.getByLabel('Recovery key or passphrase').fill(second);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectReadable(elsewhere, alice.contact.name, alice.history);
    expectNeverSent(alice.recoveryKey, first, second);
  });

  it('measures the passphrase as it is typed, and refuses a weak one and the account password', async () => {
    const page = await newBrowser();
    const name = uniqueName('kbm');
    await page.goto('/register');
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: 'Save your recovery key' }).waitFor();
    const recoveryKey = (await page.getByTestId('recovery-key').textContent())!.trim();
    for (const field of await page.getByLabel(/^Group \d$/).all()) {
      const number = Number((await field.getAttribute('name'))!.replace('group-', ''));
      await field.fill(recoveryKey.split('-')[number - 1]!);
    }
    await page.getByRole('checkbox', { name: 'Also unlock with a passphrase' }).check();
    const meter = page.getByRole('meter', { name: 'Passphrase strength' });
    const passphraseField = page.getByLabel('Passphrase', { exact: true });
    const type = async (passphrase: string) => {
      await passphraseField.fill(passphrase);
      await page.getByLabel('Repeat passphrase').fill(passphrase);
    };
    const signUp = () => page.getByRole('button', { name: 'Sign Up', exact: true }).click();

    // A common password: the meter says so, with the estimator's feedback, and the step refuses it.
    await type('password1234');
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toBe('Weak');
    await page.getByText(/(heavily|frequently|commonly) used password/).waitFor();
    await signUp();
    await page.getByText('This passphrase is too easy to guess. Add more uncommon words.').waitFor();

    // The account password, which the server sees at every login, strong as it is: refused.
    await type(password);
    await page
      .getByText(/This is your account password/)
      .first()
      .waitFor();
    await signUp();
    await expect.poll(() => page.getByText(/This is your account password/).count()).toBe(2);
    await expect.poll(() => page.url()).toMatch(/\/register$/);

    // Several uncommon words: strong, and the account is made with that passphrase.
    const passphrase = 'violet tractor gambles under moonlit quarries';
    await type(passphrase);
    await expect.poll(() => meter.getAttribute('aria-valuetext')).toBe('Very strong');
    expect(Number(await meter.getAttribute('value'))).toBe(4);
    await signUp();
    await page.waitForURL('**/all-chats', { timeout: 30_000 });
    expectNeverSent(recoveryKey, passphrase);

    // The passphrase opens the backup elsewhere.
    const elsewhere = await newBrowser();
    await login(elsewhere, name, password);
    const dialog = restoreDialog(elsewhere);
    await dialog.getByLabel('Recovery key or passphrase').fill(passphrase);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('re-wraps a backup made with PBKDF2 with Argon2id when its passphrase restores it, and stores it', async () => {
    const { backup, passphrase, recoveryKey } = pbkdf2KeyBackup;
    // An account registered before Argon2id, whose backup the server still holds as it was made.
    const name = uniqueName('kbold');
    // Registered as a browser registers: the first key log entry signed by the backup's signing key.
    const { signingKey } = await openKeyBackupBundle(backup, { recoveryKey });
    const keyLogEntry = await signKeyLogEntry(
      null,
      { encryptionKey: backup.publicKey, signingKey: backup.signingKey!.publicKey, reason: 'registered' },
      signingKey!.privateKey,
    );
    const form = new FormData();
    for (const [field, value] of Object.entries({
      username: name,
      password,
      publicKey: backup.publicKey,
      signingKey: backup.signingKey!.publicKey,
      keyLogEntry: JSON.stringify(keyLogEntry),
      keyBackup: JSON.stringify(backup),
    }))
      form.set(field, value);
    expect((await fetch(`${veil.url}/api/v1/user/register`, { method: 'POST', body: form })).status).toBe(
      201,
    );
    const storedBackup = async () => {
      const signIn = await fetch(`${veil.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: name, password }),
      });
      const token = ((await signIn.json()) as { data: { user: { accesstoken: string } } }).data.user
        .accesstoken;
      const res = await fetch(`${veil.url}/api/v1/user/keyBackup`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { data: { backup: typeof backup } }).data.backup;
    };

    const page = await newBrowser();
    await login(page, name, password);
    const dialog = restoreDialog(page);
    await dialog.getByLabel('Recovery key or passphrase').fill(passphrase);
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await dialog.waitFor({ state: 'detached' });

    const upgraded = await storedBackup();
    const passphraseUnlock = upgraded.unlocks.find((unlock) => unlock.kind === 'passphrase')!;
    expect(passphraseUnlock.kdf).toMatchObject({ name: 'Argon2id', parallelism: 1 });
    const { unlocks: before, ...restBefore } = backup;
    const { unlocks: after, ...restAfter } = upgraded;
    expect(restAfter).toEqual(restBefore);
    expect(after[0]).toEqual(before[0]);
    expectNeverSent(passphrase, recoveryKey);

    // The re-wrapped backup opens with the same passphrase in another browser.
    const elsewhere = await newBrowser();
    await login(elsewhere, name, password);
    await restoreDialog(elsewhere).getByLabel('Recovery key or passphrase').fill(passphrase);
    await restoreDialog(elsewhere).getByRole('button', { name: 'Restore' }).click();
    await restoreDialog(elsewhere).waitFor({ state: 'detached' });
  });

  it('prompts an account without a backup to create one, and the key created later restores elsewhere', async () => {
    const page = await newBrowser();
    const name = uniqueName('kbs');
    await register(page, name, password, undefined, { skip: true });
    const prompt = page.getByRole('complementary', { name: 'Message backup' });
    await prompt.getByText('Protect your messages: create a recovery key.').waitFor();
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });

    // It comes back in a later session, and creates the backup from the key this browser holds.
    await page.reload();
    await prompt.getByRole('button', { name: 'Create recovery key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save your recovery key' });
    await dialog.waitFor();
    const recoveryKey = await saveRecoveryKey(page, 'Save recovery key');
    await dialog.waitFor({ state: 'detached' });
    await prompt.waitFor({ state: 'detached' });

    const contact = await signedUpPerson(veil, 'kbsc');
    await sayHi(contact.page, name);
    const elsewhere = await newBrowser();
    await login(elsewhere, name, password);
    await secretField(elsewhere).fill(recoveryKey);
    await restoreDialog(elsewhere).getByRole('button', { name: 'Restore' }).click();
    await restoreDialog(elsewhere).waitFor({ state: 'detached' });
    await expectReadable(elsewhere, contact.name, [`Hi ${name}`]);
    expectNeverSent(recoveryKey);
  });
});
