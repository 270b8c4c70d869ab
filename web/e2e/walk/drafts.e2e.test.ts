import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  chatBetween,
  createGroupOverApi,
  currentUserId,
  messageWithText,
  openChat,
  storedInIndexedDb,
  uniqueName,
} from '../flows.ts';
import { useVeilWeb } from '../harness.ts';

const storedDrafts = (page: Page) => storedInIndexedDb(page, 'veil-drafts', 'drafts');

/** Unsent text stays with its chat: across chats, across a reload, encrypted at rest. */
describe('walk: drafts (browser)', { timeout: 150_000 }, () => {
  const suite = useVeilWeb();

  it('keeps what was typed per chat across switching and a reload, sealed, until it is sent', async () => {
    const { alice, bob } = await chatBetween(suite(), ['dal', 'dbo']);
    const groupName = uniqueName('Drafting');
    await createGroupOverApi(alice.page, groupName, [await currentUserId(bob.page)]);
    const composer = alice.page.getByRole('textbox', { name: 'Message' });
    const draft = 'Half a thought\nand a second line';
    const storedBeforeTyping = await storedDrafts(alice.page);
    await composer.fill(draft);

    await openChat(alice.page, groupName);
    expect(await composer.inputValue()).toBe('');
    await openChat(alice.page, bob.name);
    await expect.poll(() => composer.inputValue()).toBe(draft);

    // Stored once typing rests, and not as readable text.
    await expect.poll(() => storedDrafts(alice.page)).not.toBe(storedBeforeTyping);
    expect(await storedDrafts(alice.page)).not.toContain('Half a thought');
    await alice.page.reload();
    await openChat(alice.page, bob.name);
    await expect.poll(() => composer.inputValue()).toBe(draft);

    // Sent, it is no longer a draft.
    const storedBeforeSending = await storedDrafts(alice.page);
    await composer.press('Enter');
    await messageWithText(bob.page, draft).waitFor();
    await expect.poll(() => composer.inputValue()).toBe('');
    // The drafts without it are sealed and stored anew once typing rests.
    await expect.poll(() => storedDrafts(alice.page)).not.toBe(storedBeforeSending);
    await alice.page.reload();
    await openChat(alice.page, bob.name);
    await messageWithText(alice.page, draft).waitFor();
    expect(await composer.inputValue()).toBe('');
  });
});
