import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { currentUserId, messageWithText, openChat, sayHi, sendMessage, signedUpPerson } from './flows.ts';
import { useVeilWeb } from './harness.ts';

/**
 * The server plays the attacker with changes to messages, live: it serves an edit older than the
 * one a reader shows, and takes a member's reaction back in their name. Each reader's browser
 * checks the change's signature before it shows it.
 */
describe('a hostile server and message changes (browser)', { timeout: 180_000 }, () => {
  const veil = useVeilWeb({ hostile: true });

  const openMenu = async (message: Locator) => {
    await message.getByRole('button', { name: /^Actions for message from / }).focus();
    await message.page().keyboard.press('Enter');
    const menu = message.getByRole('menu');
    await menu.waitFor();
    return menu;
  };
  const edit = async (message: Locator, text: string) => {
    await (await openMenu(message)).getByRole('menuitem', { name: 'Edit' }).click();
    const editor = message.page().getByRole('textbox', { name: 'Edit message' });
    await editor.fill(text);
    await editor.press('Enter');
  };

  it('flags a rolled-back edit the reader holds a newer one of, and keeps a reaction the server takes back unsigned', async () => {
    const proxy = veil().proxy;
    const alice = await signedUpPerson(veil(), 'rca');
    const bob = await signedUpPerson(veil(), 'rcb');
    const bobId = await currentUserId(bob.page);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await sendMessage(alice.page, 'First version');
    await messageWithText(bob.page, 'First version').waitFor();

    // Alice edits twice; Bob sees each edit live.
    const editsToBob = () =>
      proxy.events.filter(
        (event) =>
          event.direction === 'toClient' && event.viewer === bobId && event.name === 'message edited',
      );
    await edit(messageWithText(alice.page, 'First version'), 'Second version');
    await messageWithText(bob.page, 'Second version').waitFor();
    await edit(messageWithText(alice.page, 'Second version'), 'Third version');
    await messageWithText(bob.page, 'Third version').waitFor();
    const [second] = editsToBob();
    expect(editsToBob()).toHaveLength(2);

    // The server serves Bob the second edit again, as the newest: a signed edit, but older.
    proxy.injectEvent('toClient', { name: 'message edited', args: second!.args }, bobId);
    await bob.page
      .getByTestId('message')
      .filter({
        hasText: 'This message could not be verified: it is an older edit than the one already shown',
      })
      .waitFor();
    expect(await messageWithText(bob.page, 'Second version').count()).toBe(0);

    // Bob reacts to Alice's message; the server then tells Alice he took it back, unsigned.
    const { chatId } = second!.args[0] as { chatId: string };
    await sendMessage(alice.page, 'React to me');
    const atBob = messageWithText(bob.page, 'React to me');
    await (await openMenu(atBob)).getByRole('menuitem', { name: 'React with 👍' }).click();
    const atAlice = messageWithText(alice.page, 'React to me');
    await atAlice.getByRole('button', { name: `👍 1: ${bob.name}` }).waitFor();
    const reacted = proxy.events.find(
      (event) =>
        event.direction === 'toClient' &&
        event.name === 'reaction' &&
        (event.args[0] as { userId?: string }).userId === bobId,
    );
    const target = (reacted!.args[0] as { messageId: string }).messageId;
    const aliceId = await currentUserId(alice.page);
    proxy.injectEvent(
      'toClient',
      { name: 'reaction', args: [{ chatId, messageId: target, userId: bobId, reaction: null }] },
      aliceId,
    );
    // Then a removal carrying a signature Bob made for something else (his reaction itself).
    const bobsReaction = (reacted!.args[0] as { reaction: { signature: object } }).reaction;
    proxy.injectEvent(
      'toClient',
      {
        name: 'reaction',
        args: [
          {
            chatId,
            messageId: target,
            userId: bobId,
            reaction: null,
            removalSignature: bobsReaction.signature,
          },
        ],
      },
      aliceId,
    );
    // Bob's own removal, signed, is what takes it away: the forged ones were ignored before it.
    const removals = () =>
      proxy.events.filter(
        (event) =>
          event.direction === 'toClient' &&
          event.viewer === aliceId &&
          event.name === 'reaction' &&
          (event.args[0] as { reaction?: unknown }).reaction === null,
      ).length;
    await expect.poll(removals).toBe(2);
    // A message sent after the forged removals arrives after them too (one socket, in order).
    await sendMessage(bob.page, 'After the forgeries');
    await messageWithText(alice.page, 'After the forgeries').waitFor();
    expect(await atAlice.getByRole('button', { name: `👍 1: ${bob.name}` }).count()).toBe(1);

    await atBob.getByRole('button', { name: '👍 1: you' }).click();
    await atAlice.getByRole('button', { name: /^👍/ }).waitFor({ state: 'detached' });
    proxy.behave();
  });
});
