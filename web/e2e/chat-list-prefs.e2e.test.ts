import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chatOption, openChat, sameUserElsewhere, sayHi, sendMessage, signedUpPerson } from './flows.ts';
import { useVeilWeb } from './harness.ts';

/**
 * Archived and pinned chats are the account's, not the browser's: what one browser archives and
 * pins, another browser of the same account shows the same; a new message brings an archived
 * chat back.
 */
describe('archived and pinned chats (browser)', { timeout: 180_000 }, () => {
  const veilWeb = useVeilWeb();

  const listed = (page: Page) => page.getByTestId('chat-list').getByTestId('chat-item');
  const titles = async (page: Page) => (await listed(page).allTextContents()).join('\n');
  const firstRow = (page: Page) => listed(page).first();

  it('archives and pins in one browser, shows the same live in a second one, and brings a chat back on a message', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'aal');
    const bob = await signedUpPerson(veil, 'abo');
    const carol = await signedUpPerson(veil, 'aca');
    const dave = await signedUpPerson(veil, 'ada');
    for (const other of [carol, bob, dave]) await sayHi(alice.page, other.name);
    await expect.poll(async () => (await firstRow(alice.page).textContent()) ?? '').toContain(dave.name);

    // Alice's second browser is open on the list meanwhile.
    const elsewhere = await sameUserElsewhere(veil, alice);
    await elsewhere.goto('/all-chats');
    await expect.poll(() => titles(elsewhere)).toContain(bob.name);

    // Pin Carol's chat (the oldest) and archive Bob's.
    await openChat(alice.page, carol.name);
    await chatOption(alice.page, 'Pin');
    await alice.page.getByRole('button', { name: 'Unpin' }).waitFor();
    await expect.poll(async () => (await firstRow(alice.page).textContent()) ?? '').toContain(carol.name);
    await openChat(alice.page, bob.name);
    await chatOption(alice.page, 'Archive');
    await alice.page.getByRole('button', { name: 'Unarchive' }).waitFor();
    await expect.poll(() => titles(alice.page)).not.toContain(bob.name);
    await alice.page.getByRole('button', { name: 'Archived (1)' }).waitFor();

    // The second browser shows the same list, live.
    await expect.poll(async () => (await firstRow(elsewhere).textContent()) ?? '').toContain(carol.name);
    await expect.poll(() => titles(elsewhere)).not.toContain(bob.name);
    expect(await titles(elsewhere)).toContain(dave.name);
    await elsewhere.getByRole('button', { name: 'Archived (1)' }).click();
    await expect.poll(() => titles(elsewhere)).toContain(bob.name);
    expect(await titles(elsewhere)).not.toContain(dave.name);
    await elsewhere.getByRole('button', { name: 'Back to chats' }).click();
    await expect.poll(() => titles(elsewhere)).toContain(dave.name);

    // A new message from Bob brings his chat back to the list, in both browsers.
    await openChat(bob.page, alice.name);
    await sendMessage(bob.page, 'Still there?');
    await expect.poll(() => titles(alice.page)).toContain(bob.name);
    await expect.poll(() => titles(elsewhere)).toContain(bob.name);
    expect(await elsewhere.getByRole('button', { name: /^Archived/ }).count()).toBe(0);
  });
});
