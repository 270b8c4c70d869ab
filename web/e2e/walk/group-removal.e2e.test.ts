import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  createGroupOverApi,
  currentUserId,
  messageWithText,
  openChat,
  openGroupInfo,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from '../flows.ts';
import { useVeilWeb } from '../harness.ts';

/** A member an admin removes keeps the history sealed for them, read-only, until added again. */
describe('walk: removed from a group and added again (browser)', { timeout: 180_000 }, () => {
  const suite = useVeilWeb();

  const systemLine = (page: Page, text: string) => page.getByTestId('system-line').filter({ hasText: text });
  const readOnly = (page: Page) =>
    page.getByRole('status').filter({
      hasText: 'You can’t send messages to this group because you’re no longer a member',
    });
  const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });

  it('sees who removed them, reads what was theirs, cannot send; added again, sends, and the old messages stay', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'wal');
    const bob = await signedUpPerson(veil, 'wbo');
    const groupName = uniqueName('Crew');
    const bobId = await currentUserId(bob.page);
    await createGroupOverApi(alice.page, groupName, [bobId]);
    await openChat(alice.page, groupName);
    await openChat(bob.page, groupName);
    await sendMessage(alice.page, 'before the removal');
    await messageWithText(bob.page, 'before the removal').waitFor();

    let panel = await openGroupInfo(alice.page);
    await panel.getByRole('button', { name: `Remove ${bob.name}` }).click();
    await panel.getByRole('button', { name: `Remove ${bob.name}` }).waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Close' }).click();

    // Bob, live: who removed him, the chat read-only, the history still there.
    await systemLine(bob.page, `${alice.name} removed you`).waitFor();
    await readOnly(bob.page).waitFor();
    expect(await composer(bob.page).count()).toBe(0);
    expect(await bob.page.getByRole('button', { name: 'Group info' }).count()).toBe(0);
    await sendMessage(alice.page, 'while bob is out');
    await messageWithText(alice.page, 'while bob is out').waitFor();

    // After a reload: the same, and nothing sent since his removal.
    await bob.page.reload();
    await messageWithText(bob.page, 'before the removal').waitFor();
    await systemLine(bob.page, `${alice.name} removed you`).waitFor();
    await readOnly(bob.page).waitFor();
    expect(await messageWithText(bob.page, 'while bob is out').count()).toBe(0);
    await bob.page.getByTestId('chat-item').filter({ hasText: groupName }).waitFor();

    // Alice adds him again: he can send, and what he had stays.
    panel = await openGroupInfo(alice.page);
    await panel.getByRole('checkbox', { name: bob.name }).check();
    await panel.getByRole('button', { name: 'Add to group' }).click();
    await panel.getByRole('button', { name: `Remove ${bob.name}` }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    await systemLine(bob.page, `${alice.name} added you`).waitFor();
    await composer(bob.page).waitFor();
    expect(await readOnly(bob.page).count()).toBe(0);
    await sendMessage(bob.page, 'bob is back');
    await messageWithText(alice.page, 'bob is back').waitFor();

    await bob.page.reload();
    await messageWithText(bob.page, 'bob is back').waitFor();
    await messageWithText(bob.page, 'before the removal').waitFor();
    expect(await messageWithText(bob.page, 'while bob is out').count()).toBe(0);
  });
});
