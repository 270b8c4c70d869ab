import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, ownBackgroundContrasts, useTheme, type AxeViolation } from './axe.ts';
import { login, messageWithText, openChat, openChatFromUsers, sendMessage, signedUpPerson } from './flows.ts';
import { desktop, phone, phone390, useVeilWeb } from './harness.ts';

const veil = useVeilWeb();

/** Every violation of one page state, in both themes and at both widths, labelled by where it was found. */
const auditEverywhere = async (page: Page, state: string, settle: () => Promise<void> = async () => {}) => {
  const found: (AxeViolation & { where: string })[] = [];
  for (const size of [desktop, phone390]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await useTheme(page, theme);
      await settle();
      for (const violation of await axeViolations(page))
        found.push({ ...violation, where: `${state}, ${theme}, ${size.width}px` });
    }
  }
  await page.setViewportSize(desktop);
  return found;
};

/**
 * A dialog, audited while it stays open: the top bar's theme toggle is inert behind a modal
 * dialog, so the theme is put on <html> directly, which is all the toggle does to the page.
 */
const auditOpenDialog = async (page: Page, state: string) => {
  const found: (AxeViolation & { where: string })[] = [];
  for (const size of [desktop, phone390]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((wanted) => (document.documentElement.dataset.theme = wanted), theme);
      for (const violation of await axeViolations(page))
        found.push({ ...violation, where: `${state}, ${theme}, ${size.width}px` });
    }
  }
  await page.setViewportSize(desktop);
  return found;
};

describe('accessibility', () => {
  it('has no axe violations on any page state, in both themes, at desktop and phone widths', async () => {
    const found: (AxeViolation & { where: string })[] = [];
    const visitor = await veil().newPage();
    await visitor.goto('/');
    await visitor.getByRole('heading', { name: 'Welcome to Veil' }).waitFor();
    found.push(...(await auditEverywhere(visitor, 'welcome')));
    await visitor.goto('/login');
    found.push(...(await auditEverywhere(visitor, 'login')));
    await visitor.goto('/register');
    await visitor.getByRole('button', { name: 'Sign Up' }).click();
    await visitor.getByText('Username is required').waitFor();
    found.push(...(await auditEverywhere(visitor, 'register with errors')));
    await visitor.goto('/nowhere');
    found.push(...(await auditEverywhere(visitor, 'not found')));

    const alice = await signedUpPerson(veil(), 'axe_alice');
    const bob = await signedUpPerson(veil(), 'axe_bob');
    const page = alice.page;
    found.push(...(await auditEverywhere(page, 'all chats, empty')));
    await page.goto('/users');
    await page.getByRole('button', { name: `${bob.name}: Say Hi` }).waitFor();
    found.push(...(await auditEverywhere(page, 'users')));

    await openChatFromUsers(page, bob.name);
    await sendMessage(page, 'Hello, are you there?');
    await openChat(bob.page, alice.name);
    await sendMessage(bob.page, 'Yes, here https://example.org');
    await messageWithText(page, 'Yes, here https://example.org').waitFor();
    found.push(
      ...(await auditEverywhere(page, 'chat with messages', async () => {
        // On a phone a chat opens without the list over it.
        await page.getByRole('textbox', { name: 'Message' }).waitFor();
      })),
    );

    // The nav's chats item with an unread count: the name it is read out by comes from its own text.
    await bob.page.goto('/users');
    await sendMessage(page, 'Are you still there?');
    await bob.page.getByRole('link', { name: 'All-chats, 1 unread' }).waitFor();
    found.push(...(await auditEverywhere(bob.page, 'users, with an unread chat')));

    // The safety number of a one-to-one chat.
    await page.getByRole('button', { name: 'Verify safety number' }).click();
    await page.getByTestId('safety-number').waitFor();
    found.push(...(await auditOpenDialog(page, 'safety number dialog')));
    await page.keyboard.press('Escape');

    // The group dialog, both steps, then the new group's info panel.
    await page.getByRole('button', { name: 'Create group chat' }).click();
    const create = page.getByRole('dialog', { name: 'Create Group Chat' });
    found.push(...(await auditOpenDialog(page, 'group dialog, name')));
    await create.getByLabel('Group Name').fill('Axe group');
    await create.getByRole('button', { name: 'Next' }).click();
    await create.getByRole('checkbox', { name: bob.name }).waitFor();
    found.push(...(await auditOpenDialog(page, 'group dialog, members')));
    await create.getByRole('checkbox', { name: bob.name }).check();
    await create.getByRole('button', { name: 'Create Group' }).click();
    await page.getByTestId('chat-title').filter({ hasText: 'Axe group' }).waitFor();
    await page.getByRole('button', { name: 'Group info' }).click();
    await page.getByRole('dialog', { name: 'Group info' }).waitFor();
    found.push(...(await auditOpenDialog(page, 'group info')));
    // "Remove" and "Leave group" paint their own red: their text must stand out from it in both themes.
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((wanted) => (document.documentElement.dataset.theme = wanted), theme);
      const dangerButtons = await ownBackgroundContrasts(page, 'dialog[open] .button--danger');
      expect(dangerButtons.map(({ text }) => text)).toEqual(
        expect.arrayContaining(['Remove', 'Leave group']),
      );
      for (const button of dangerButtons)
        expect(button.ratio, `${button.text}, ${theme}`).toBeGreaterThanOrEqual(4.5);
    }
    await page.keyboard.press('Escape');

    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    found.push(...(await auditEverywhere(page, 'profile')));
    for (const [button, state] of [
      ['New recovery key', 'new recovery key dialog'],
      ['Add a passphrase', 'passphrase dialog'],
      ['I lost my key: start fresh', 'start fresh dialog'],
      ['Logout', 'logout dialog'],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      found.push(...(await auditOpenDialog(page, state)));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }

    // A browser without the account's key: the restore screen, and linking from another browser.
    const elsewhere = await veil().newPage();
    await login(elsewhere, alice.name, 'correct horse 1');
    const restore = elsewhere.getByRole('dialog', { name: 'Restore your messages' });
    await restore.waitFor();
    found.push(...(await auditOpenDialog(elsewhere, 'restore dialog')));
    await restore.getByRole('button', { name: 'Link from another browser' }).click();
    await elsewhere.getByTestId('link-code').waitFor();
    found.push(...(await auditOpenDialog(elsewhere, 'link dialog')));

    expect(found).toEqual([]);
  }, 600_000);

  it('reads out a new message with its sender, names messages and moves focus where the user is going', async () => {
    const alice = await signedUpPerson(veil(), 'sr_alice');
    const bob = await signedUpPerson(veil(), 'sr_bob');
    await openChatFromUsers(bob.page, alice.name);
    await sendMessage(bob.page, 'First one');
    await openChat(alice.page, bob.name);
    await messageWithText(alice.page, 'First one').waitFor();

    // The history already shown is not news; a message arriving now is, with who sent it.
    const log = alice.page.getByRole('log', { name: 'New messages' });
    expect(await log.textContent()).toBe('');
    await sendMessage(bob.page, 'Dinner at eight?');
    await expect.poll(() => log.ariaSnapshot()).toContain(`New message from ${bob.name}: Dinner at eight?`);
    // Alice's own messages are not read back to her.
    await sendMessage(alice.page, 'Sounds good');
    await messageWithText(alice.page, 'Sounds good').waitFor();
    expect(await log.ariaSnapshot()).not.toContain('Sounds good');

    // Each message says who sent it and when; its reply button names both.
    const incoming = messageWithText(alice.page, 'Dinner at eight?');
    await expect.poll(() => incoming.ariaSnapshot()).toContain(`${bob.name}:`);
    await incoming.getByRole('button', { name: new RegExp(`^Reply to ${bob.name}, \\d`) }).waitFor();
    await messageWithText(alice.page, 'Sounds good')
      .getByRole('button', { name: /^Reply to You, \d/ })
      .waitFor();

    // Navigating focuses the new page's heading.
    await alice.page.getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => alice.page.evaluate(() => document.activeElement?.textContent)).toBe('All Users');

    // Closing a dialog gives focus back to the button that opened it.
    await alice.page.getByRole('link', { name: 'All-chats' }).click();
    await expect.poll(() => alice.page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const groupButton = alice.page.getByRole('button', { name: 'Create group chat' });
    await groupButton.click();
    await alice.page.getByRole('dialog', { name: 'Create Group Chat' }).waitFor();
    await alice.page.keyboard.press('Escape');
    await expect.poll(() => groupButton.evaluate((button) => button === document.activeElement)).toBe(true);

    // On a phone, "Show chats" takes the keyboard into the list it opens.
    await openChat(alice.page, bob.name);
    await alice.page.setViewportSize(phone);
    await alice.page.getByRole('button', { name: 'Show chats' }).click();
    await expect
      .poll(() => alice.page.evaluate(() => Boolean(document.activeElement?.closest('#chat-list'))))
      .toBe(true);
  }, 240_000);

  it('drops motion for users who ask for less, and marks states with system colours in forced-colours mode', async () => {
    const { page, name } = await signedUpPerson(veil(), 'motion');
    await page.goto('/users');
    const action = page.getByTestId('user-card').filter({ hasText: name }).locator('.user-card__action');
    const transition = () => action.evaluate((element) => getComputedStyle(element).transitionDuration);
    expect(await transition()).toBe('0.15s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(parseFloat(await transition())).toBeLessThan(0.001);

    // The current page is marked by colour alone in the normal themes; forced colours take that away.
    const current = page.getByRole('link', { name: 'Users' });
    const outline = () => current.evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(await outline()).toBe('none');
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await outline()).toBe('solid');
  }, 120_000);

  it('renders the chat in Arabic, right to left, with composer, bubbles and navigation mirrored', async () => {
    const alice = await signedUpPerson(veil(), 'rtl_alice');
    const bob = await signedUpPerson(veil(), 'rtl_bob');
    await openChatFromUsers(bob.page, alice.name);
    await sendMessage(bob.page, 'مرحبا');
    await openChat(alice.page, bob.name);
    await sendMessage(alice.page, 'أهلا');
    await messageWithText(alice.page, 'أهلا').waitFor();

    // The switch on the profile page; the choice stays with this browser.
    await alice.page.goto('/profile');
    await alice.page.getByLabel('Language of Veil').selectOption('ar');
    await alice.page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await alice.page.evaluate(() => document.documentElement.lang)).toBe('ar');
    await alice.page.getByRole('heading', { name: 'الملف الشخصي', level: 1 }).waitFor();
    await alice.page.reload();
    await alice.page.getByRole('heading', { name: 'الملف الشخصي', level: 1 }).waitFor();

    await alice.page.goto('/all-chats');
    await alice.page.getByTestId('chat-item').filter({ hasText: bob.name }).click();
    await messageWithText(alice.page, 'مرحبا').waitFor();
    const box = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!;
    const width = alice.page.viewportSize()!.width;

    // Navigation on the right, the chat list beside it, the open chat on the left.
    const nav = await box(alice.page.getByRole('navigation', { name: 'القائمة الرئيسية' }));
    expect(nav.x + nav.width).toBeGreaterThan(width - 2);
    const list = await box(alice.page.getByTestId('chat-list'));
    const pane = await box(alice.page.getByRole('region', { name: 'المحادثة المفتوحة' }));
    expect(list.x).toBeGreaterThan(pane.x);

    // Her own bubble to the left, the other's to the right; the send button at the composer's left end.
    const mine = await box(messageWithText(alice.page, 'أهلا').locator('.message__bubble'));
    const theirs = await box(messageWithText(alice.page, 'مرحبا').locator('.message__bubble'));
    expect(mine.x).toBeLessThan(theirs.x);
    expect(theirs.x + theirs.width).toBeGreaterThan(mine.x + mine.width);
    const input = await box(alice.page.getByRole('textbox', { name: 'الرسالة' }));
    const send = await box(alice.page.getByRole('button', { name: 'إرسال', exact: true }));
    expect(send.x + send.width).toBeLessThanOrEqual(input.x + 1);

    // The browser language decides until a choice is made: a new English browser stays English, left to right.
    const other = await veil().newPage();
    await other.goto('/');
    await other.getByRole('heading', { name: 'Welcome to Veil' }).waitFor();
    expect(await other.evaluate(() => document.documentElement.dir)).toBe('ltr');
  }, 240_000);
});
