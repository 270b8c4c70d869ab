import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  createGroupOverApi,
  currentUserId,
  messageWithText,
  openChatFromUsers,
  openGroupInfo,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from '../flows.ts';
import { useVeilWeb } from '../harness.ts';

/** The app in another language, with people and texts in theirs: direction and grammar hold. */
describe('walk: languages and direction (browser)', { timeout: 180_000 }, () => {
  const suite = useVeilWeb();

  const speak = async (page: Page, language: 'ar' | 'de') => {
    await page.evaluate((code) => localStorage.setItem('language', code), language);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
  };

  it('isolates an English message in the Arabic app, and counts unread chats in the nav in each language', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'dal');
    const bob = await signedUpPerson(veil, 'dbo');
    await speak(bob.page, 'ar');
    expect(await bob.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await bob.page.goto('/users');

    await openChatFromUsers(alice.page, bob.name);
    await sendMessage(alice.page, 'Hello from the left');
    await messageWithText(alice.page, 'Hello from the left').waitFor();

    // The nav's chats item says how many chats are unread, in Arabic (one: its own form).
    await bob.page.getByRole('link', { name: 'كل المحادثات، محادثة واحدة غير مقروءة' }).waitFor();
    expect(await bob.page.getByTestId('nav-unread').textContent()).toBe('1');

    await bob.page.getByRole('link', { name: /^كل المحادثات/ }).click();
    await bob.page.getByTestId('chat-item').filter({ hasText: alice.name }).click();
    const text = bob.page.getByTestId('message-text').filter({ hasText: 'Hello from the left' });
    await text.waitFor();
    expect(await text.getAttribute('dir')).toBe('auto');
    expect(await text.evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
    // The page around it stays right to left, and the chat's name is isolated.
    expect(
      await bob.page.getByTestId('chat-title').evaluate((title) => getComputedStyle(title).direction),
    ).toBe('rtl');
    expect(await bob.page.getByTestId('chat-title').locator('bdi').textContent()).toBe(alice.name);
    await bob.page.getByRole('link', { name: 'كل المحادثات', exact: true }).waitFor();

    // The English side: "All-chats, 1 unread".
    await alice.page.goto('/users');
    const composer = bob.page.getByRole('textbox', { name: 'الرسالة' });
    await composer.fill('مرحبا');
    await composer.press('Enter');
    await alice.page.getByRole('link', { name: 'All-chats, 1 unread' }).waitFor();
  });

  it('says "alice added you" as German grammar wants it', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'gal');
    const bob = await signedUpPerson(veil, 'gbo');
    const carol = await signedUpPerson(veil, 'gca');
    const group = uniqueName('Runde');
    const bobId = await currentUserId(bob.page);
    await createGroupOverApi(alice.page, group, [bobId]);
    await speak(carol.page, 'de');
    await alice.page.goto('/all-chats');
    await alice.page.getByTestId('chat-item').filter({ hasText: group }).click();
    const panel = await openGroupInfo(alice.page);
    await panel.getByRole('checkbox', { name: carol.name }).check();
    await panel.getByRole('button', { name: 'Add to group' }).click();
    await panel.getByRole('button', { name: `Remove ${carol.name}` }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    await alice.page
      .getByTestId('system-line')
      .filter({ hasText: `You added ${carol.name}` })
      .waitFor();

    await carol.page.goto('/all-chats');
    await carol.page.getByTestId('chat-item').filter({ hasText: group }).click();
    const line = carol.page.getByTestId('system-line').filter({ hasText: 'hinzugefügt' });
    await line.waitFor();
    expect(await line.textContent()).toBe(`${alice.name} hat dich hinzugefügt`);
    expect(await line.locator('bdi').allTextContents()).toEqual([alice.name]);
  });
});
