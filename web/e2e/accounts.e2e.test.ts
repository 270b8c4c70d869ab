import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { login, logout, makePng, register, saveRecoveryKey, uniqueName } from './flows.ts';
import { phone, startVeilWeb, type VeilWeb } from './harness.ts';
import { readKeyStore } from './key-storage.ts';

/** Accounts, profile, directory, theme and the shell, in a real browser. */
describe('accounts (browser)', { timeout: 120_000 }, () => {
  let veil: VeilWeb;
  beforeAll(async () => {
    veil = await startVeilWeb();
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(() => veil?.stop());

  it('registers with a picture, greets, searches users, edits the profile and changes the password', async () => {
    const page = await veil.newPage();
    const name = uniqueName('ann');
    const other = uniqueName('zed');
    const password = 'first password 1';

    // Sign up shows the chosen picture's preview and name, and "Signing Up..." while busy.
    await page.goto('/register');
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Password').fill(password);
    await page
      .getByLabel('Profile Picture (optional)')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
    await page.getByAltText('Selected picture preview').waitFor();
    await page.getByText('me.png').waitFor();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await saveRecoveryKey(page, 'Sign Up');
    // Registering signs the new account in: no second sign-in.
    await page.waitForURL('**/all-chats');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('data') ?? '{}').username)).toBe(name);
    // The private keys (encryption and signing) are kept in this browser under the new account,
    // as non-extractable keys, beside the record of the key-log entry it signed.
    const stored = await readKeyStore(page);
    expect(stored.entries.map((entry) => entry.split(':')[0])).toEqual([
      'key-log-made',
      'private-keys',
      'signing-keys',
    ]);
    for (const keys of [stored.accounts, stored.signing])
      expect(Object.values(keys)[0]).toEqual([
        expect.objectContaining({ isCryptoKey: true, extractable: false }),
      ]);

    // A second account with the same name is refused with the server's message.
    await register(await veil.newPage(), other, 'other password 1');
    const again = await veil.newPage();
    await again.goto('/register');
    await again.getByLabel('Username').fill(other);
    await again.getByLabel('Password').fill('other password 1');
    await again.getByRole('button', { name: 'Sign Up' }).click();
    await saveRecoveryKey(again, 'Sign Up');
    await again.locator('.form__error').waitFor();
    expect(await again.locator('.form__error').textContent()).toMatch(/taken|exists|Registration failed/i);

    await page.getByText('No chats available').waitFor();
    await page.getByRole('link', { name: 'Veil home' }).click();
    await page.getByRole('heading', { name: `Welcome back, ${name}!` }).waitFor();
    await page.getByRole('main').getByAltText(`${name}'s avatar`).waitFor();
    const avatarLoaded = await page
      .getByRole('main')
      .getByAltText(`${name}'s avatar`)
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    expect(avatarLoaded).toBe(true);
    await page.getByRole('link', { name: 'Start Chatting' }).waitFor();
    // Opening Veil at / while logged in lands on the chats.
    await page.goto('/');
    await page.waitForURL(/\/all-chats$/);
    await page.getByRole('heading', { name: 'Chats', level: 1 }).waitFor();

    // Directory: live search on each change, "No Users Available" when nothing matches.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: `${other}: Say Hi` }).waitFor();
    await page.getByLabel('Search users').fill(other.slice(0, 6).toUpperCase());
    await page.getByRole('button', { name: `${other}: Say Hi` }).waitFor();
    await expect.poll(() => page.getByTestId('user-card').count()).toBe(1);
    await page.getByLabel('Search users').fill('no-such-user-xyz');
    await page.getByText('No Users Available').waitFor();

    // Profile: view, edit (a bad name fails with its text), save, and the nav follows.
    await page.getByRole('link', { name: name }).first().click();
    await page.waitForURL('**/profile');
    await page.getByTestId('profile-username').getByText(name).waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Username').fill('x');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Failed to update profile').waitFor();
    const renamed = uniqueName('anna');
    await page.getByLabel('Username').fill(renamed);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully!').waitFor();
    await page.getByTestId('profile-username').getByText(renamed).waitFor();
    await page.getByTestId('nav-username').getByText(renamed).waitFor();

    // Password: the current one is asked first; without it nothing is sent, a wrong one is
    // refused by the server, a too-short new one fails, and a good one is the one that logs in.
    const newPassword = 'second password 2';
    const changes: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/user/updatePassword')) changes.push(request.postDataJSON());
    });
    await page.getByLabel('New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Type your current password to change it').waitFor();
    expect(changes).toEqual([]);
    await page.getByLabel('Current Password').fill('not my password');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Failed to update password').waitFor();
    await page.getByText('The current password is wrong.').waitFor();
    await page.getByLabel('Current Password').fill(password);
    await page.getByLabel('New Password').fill('short');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => changes.length).toBe(2);
    await page.getByText('The current password is wrong.').waitFor({ state: 'detached' });
    await page.getByText('Failed to update password').waitFor();
    await page.getByLabel('New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password updated successfully!').waitFor();
    expect(changes.at(-1)).toEqual({ currentPassword: password, password: newPassword });
    await expect.poll(async () => page.getByLabel('Current Password').inputValue()).toBe('');

    // Logout clears all local storage and returns to /.
    await logout(page);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.getByRole('link', { name: 'Login to Start Chatting' }).waitFor();

    await page.goto('/login');
    await page.getByLabel('Username').fill(renamed);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Login failed. Please check your credentials.').waitFor();
    await login(page, renamed, newPassword);
  });

  it('shows visitors the directory with "Login to Chat" and guards account pages', async () => {
    const page = await veil.newPage();
    await page.goto('/all-chats');
    await page.waitForURL('**/login');
    await page.goto('/profile');
    await page.waitForURL('**/login');

    // "Loading users..." while the directory loads (the response is held back a moment).
    await page.route('**/api/v1/user/getallusers', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.goto('/users');
    await page.getByText('Loading users...').waitFor();
    const someone = uniqueName('vis');
    const other = await veil.newPage();
    await register(other, someone, 'visible password 1');
    await page.getByLabel('Search users').fill(someone);
    const card = page.getByRole('button', { name: `${someone}: Login to Chat` });
    await card.hover();
    await expect
      .poll(() => card.locator('.user-card__action').evaluate((el) => getComputedStyle(el).opacity))
      .toBe('1');
    await card.click();
    await page.waitForURL('**/login');
  });

  it('shows only the error when the profile cannot be loaded', async () => {
    const page = await veil.newPage();
    const name = uniqueName('err');
    await register(page, name, 'error password 1');
    // Fault injection: the profile request fails on the network.
    await page.route('**/api/v1/user/getuser', (route) => route.abort());
    await page.goto('/profile');
    await page.getByText('Failed to fetch profile').waitFor();
    expect(await page.getByRole('button', { name: 'Edit Profile' }).count()).toBe(0);
  });

  it('toggles the theme, remembers it across reloads, and follows the system at first', async () => {
    const page = await veil.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();
  });

  it('fits a phone: icon-only navigation, and the chats page opens on the list', async () => {
    const page = await veil.newPage(phone);
    const name = uniqueName('pho');
    await register(page, name, 'phone password 1');
    const usersLabel = page.getByRole('link', { name: 'Users' }).locator('.nav__label');
    expect((await usersLabel.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    // /all-chats without an open chat opens on the list.
    await page.getByTestId('chat-list').waitFor({ state: 'visible' });
    await page.getByText('No chats available').waitFor();
    await page.getByRole('button', { name: 'Hide chats' }).click();
    await page.getByTestId('chat-list').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Show chats' }).click();
    await page.getByTestId('chat-list').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
