import { describe, expect, it } from 'vitest';
import { chatBetween, messageWithText, openMessageMenu, sendMessage } from '../flows.ts';
import { useVeilWeb } from '../harness.ts';

/** Changing what was sent: an edit of several lines, a deletion for everyone and one for me. */
describe('walk: editing and deleting messages (browser)', { timeout: 150_000 }, () => {
  const suite = useVeilWeb();

  it('edits a message of several lines in a box that keeps its line breaks', async () => {
    const { alice, bob } = await chatBetween(suite());
    await sendMessage(alice.page, 'Shopping:\n- bread\n- milk');
    const sent = alice.page.getByTestId('message').filter({ hasText: '- milk' });
    await sent.waitFor();
    await (await openMessageMenu(sent)).getByRole('menuitem', { name: 'Edit' }).click();
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    expect(await editor.inputValue()).toBe('Shopping:\n- bread\n- milk');
    // Shift+Enter adds a line; Enter saves.
    await editor.press('End');
    await editor.press('Shift+Enter');
    await editor.pressSequentially('- eggs');
    await editor.press('Enter');
    const edited = bob.page.getByTestId('message').filter({ hasText: '- eggs' });
    await edited.getByText('edited', { exact: true }).waitFor();
    expect(await edited.getByTestId('message-text').innerText()).toBe('Shopping:\n- bread\n- milk\n- eggs');
  });

  it('deletes for everyone (a tombstone live and after a reload) and for me (gone from my history, still in theirs)', async () => {
    const { alice, bob } = await chatBetween(suite());
    await sendMessage(alice.page, 'Oops, wrong chat');
    await sendMessage(alice.page, 'Keep this one');
    await messageWithText(bob.page, 'Keep this one').waitFor();

    alice.page.once('dialog', (dialog) => void dialog.accept());
    const menu = await openMessageMenu(messageWithText(alice.page, 'Oops, wrong chat'));
    await menu.getByRole('menuitem', { name: 'Delete for everyone' }).click();
    for (const page of [alice.page, bob.page])
      await messageWithText(page, 'This message was deleted').waitFor();
    expect(await messageWithText(bob.page, 'Oops, wrong chat').count()).toBe(0);
    await bob.page.reload();
    await messageWithText(bob.page, 'This message was deleted').waitFor();
    expect(await messageWithText(bob.page, 'Oops, wrong chat').count()).toBe(0);

    const preview = bob.page.getByTestId('chat-preview');
    await expect.poll(() => preview.textContent()).toContain('Keep this one');
    const mine = await openMessageMenu(messageWithText(bob.page, 'Keep this one'));
    await mine.getByRole('menuitem', { name: 'Delete for me' }).click();
    await messageWithText(bob.page, 'Keep this one').waitFor({ state: 'detached' });
    // The chat list previews what is left, live and after a reload.
    await expect.poll(() => preview.textContent()).not.toContain('Keep this one');
    await bob.page.reload();
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    expect(await messageWithText(bob.page, 'Keep this one').count()).toBe(0);
    await expect.poll(() => preview.textContent()).toMatch(/deleted/);
    await messageWithText(alice.page, 'Keep this one').waitFor();
  });
});
