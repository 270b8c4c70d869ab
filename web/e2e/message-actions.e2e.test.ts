import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  chatBetween as chatBetweenIn,
  messageWithText,
  openChat,
  openMessageMenu,
  sameUserElsewhere,
  sayHi,
  sendMessage,
  signedUpPerson,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { cuttableSocket } from './network-faults.ts';

/**
 * A message's actions menu between real browsers: edit, react, forward, copy; on the author's
 * second browser, and on a browser that was offline meanwhile. Editing several lines and
 * deleting (for everyone, and for me with the preview that follows) are walks
 * (`walk/message-edits.e2e.test.ts`).
 */
describe('message actions (browser)', { timeout: 150_000 }, () => {
  const veilWeb = useVeilWeb();

  const openMenu = openMessageMenu;
  const chatBetween = () => chatBetweenIn(veilWeb());

  it('edits a message: the other side sees the new text and the edited mark live, and after a reload', async () => {
    const { alice, bob } = await chatBetween();
    await sendMessage(alice.page, 'See you at 5');
    await messageWithText(bob.page, 'See you at 5').waitFor();

    const menu = await openMenu(messageWithText(alice.page, 'See you at 5'));
    // The menu names the message, and is worked from the keyboard.
    expect(await menu.getAttribute('aria-label')).toMatch(/^Actions for message from you at /);
    await menu.getByRole('menuitem', { name: 'Edit' }).click();
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('See you at 6');
    await editor.press('Enter');

    const atBob = messageWithText(bob.page, 'See you at 6');
    await atBob.getByText('edited', { exact: true }).waitFor();
    expect(await messageWithText(bob.page, 'See you at 5').count()).toBe(0);
    await messageWithText(alice.page, 'See you at 6').getByText('edited', { exact: true }).waitFor();
    await bob.page.reload();
    await messageWithText(bob.page, 'See you at 6').getByText('edited', { exact: true }).waitFor();

    // Someone else's message offers no edit and no delete for everyone.
    const theirs = await openMenu(messageWithText(bob.page, 'See you at 6'));
    expect(await theirs.getByRole('menuitem', { name: 'Edit' }).count()).toBe(0);
    expect(await theirs.getByRole('menuitem', { name: 'Delete for everyone' }).count()).toBe(0);
    await bob.page.keyboard.press('Escape');
    await theirs.waitFor({ state: 'detached' });
  });

  it('reacts with an emoji: counts and who reacted, live on the other side, toggled off again', async () => {
    const { alice, bob } = await chatBetween();
    await sendMessage(alice.page, 'Shipped it!');
    const atBob = messageWithText(bob.page, 'Shipped it!');
    await atBob.waitFor();

    await (await openMenu(atBob)).getByRole('menuitem', { name: 'React with 👍' }).click();
    const atAlice = messageWithText(alice.page, 'Shipped it!');
    await atAlice.getByRole('button', { name: `👍 1: ${bob.name}` }).waitFor();
    // Any emoji, typed in.
    const menu = await openMenu(atAlice);
    await menu.getByRole('textbox', { name: 'Any emoji' }).fill('🚀');
    await menu.getByRole('button', { name: 'React' }).click();
    await atBob.getByRole('button', { name: `🚀 1: ${alice.name}` }).waitFor();

    await atBob.getByRole('button', { name: '👍 1: you' }).click();
    await atAlice.getByRole('button', { name: /^👍/ }).waitFor({ state: 'detached' });
    await bob.page.reload();
    await messageWithText(bob.page, 'Shipped it!')
      .getByRole('button', { name: `🚀 1: ${alice.name}` })
      .waitFor();
  });

  /** Edits, deletions and reactions a page sends over HTTP (PUT or DELETE on a message), as `METHOD path`. */
  const httpChangesOf = (page: Page) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (
        ['PUT', 'DELETE'].includes(request.method()) &&
        /^\/api\/v1\/message\/[^/]+(\/reaction)?$/.test(pathname)
      )
        calls.push(`${request.method()} ${pathname}`);
    });
    return calls;
  };
  const edit = async (message: Locator, text: string) => {
    await (await openMenu(message)).getByRole('menuitem', { name: 'Edit' }).click();
    const editor = message.page().getByRole('textbox', { name: 'Edit message' });
    await editor.fill(text);
    await editor.press('Enter');
  };
  const deleteFor = async (message: Locator, whom: 'everyone' | 'me') => {
    if (whom === 'everyone') message.page().once('dialog', (dialog) => void dialog.accept());
    await (await openMenu(message)).getByRole('menuitem', { name: `Delete for ${whom}` }).click();
  };
  const reactWith = async (message: Locator, emoji: string) =>
    (await openMenu(message)).getByRole('menuitem', { name: `React with ${emoji}` }).click();

  it("shows every change on the author's other browser live, and on a browser that was offline once it reconnects", async () => {
    const veil = veilWeb();
    let bobsSocket!: Awaited<ReturnType<typeof cuttableSocket>>;
    const alice = await signedUpPerson(veil, 'mal');
    const bob = await signedUpPerson(veil, 'mbo', async (page) => {
      bobsSocket = await cuttableSocket(page);
    });
    await sayHi(alice.page, bob.name);
    const aliceElsewhere = await sameUserElsewhere(veil, alice);
    const texts = ['Edit me', 'Delete me', 'React to me', 'Hide me'];
    for (const text of texts) await sendMessage(alice.page, text);
    await openChat(bob.page, alice.name);
    await openChat(aliceElsewhere, bob.name);
    for (const page of [bob.page, aliceElsewhere]) await messageWithText(page, 'Hide me').waitFor();
    const overHttp = [httpChangesOf(alice.page), httpChangesOf(aliceElsewhere)];

    await bobsSocket.cut();
    await bob.page.getByTestId('connection-state').waitFor();
    // Each change made on one of Alice's browsers shows on the other at once.
    await edit(messageWithText(alice.page, 'Edit me'), 'Edited while you were away');
    await messageWithText(aliceElsewhere, 'Edited while you were away')
      .getByText('edited', { exact: true })
      .waitFor();
    await deleteFor(messageWithText(aliceElsewhere, 'Delete me'), 'everyone');
    await expect.poll(() => messageWithText(alice.page, 'This message was deleted').count()).toBe(1);
    await reactWith(messageWithText(alice.page, 'React to me'), '👍');
    await messageWithText(aliceElsewhere, 'React to me').getByRole('button', { name: '👍 1: you' }).waitFor();
    await deleteFor(messageWithText(aliceElsewhere, 'Hide me'), 'me');
    await messageWithText(alice.page, 'Hide me').waitFor({ state: 'detached' });
    // All of it went over the connected sockets, none over HTTP.
    expect(overHttp.flat()).toEqual([]);
    // Bob, offline, still shows the messages as they were.
    expect(await messageWithText(bob.page, 'Edit me').count()).toBe(1);
    expect(await messageWithText(bob.page, 'Delete me').count()).toBe(1);

    bobsSocket.restore();
    await messageWithText(bob.page, 'Edited while you were away')
      .getByText('edited', { exact: true })
      .waitFor({ timeout: 20_000 });
    await messageWithText(bob.page, 'This message was deleted').waitFor();
    await messageWithText(bob.page, 'React to me')
      .getByRole('button', { name: `👍 1: ${alice.name}` })
      .waitFor();
    expect(await messageWithText(bob.page, 'Edit me').count()).toBe(0);
    expect(await messageWithText(bob.page, 'Delete me').count()).toBe(0);
    // Deleted for Alice only: Bob keeps it.
    expect(await messageWithText(bob.page, 'Hide me').count()).toBe(1);
  });

  it('changes a message over HTTP while its own socket is down, and the others see it live', async () => {
    const veil = veilWeb();
    let alicesSocket!: Awaited<ReturnType<typeof cuttableSocket>>;
    const alice = await signedUpPerson(veil, 'mal', async (page) => {
      alicesSocket = await cuttableSocket(page);
    });
    const bob = await signedUpPerson(veil, 'mbo');
    await sayHi(alice.page, bob.name);
    await sendMessage(alice.page, 'Sent with a socket');
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, 'Sent with a socket').waitFor();
    const overHttp = httpChangesOf(alice.page);

    await alicesSocket.cut();
    await alice.page.getByTestId('connection-state').waitFor();
    await edit(messageWithText(alice.page, 'Sent with a socket'), 'Edited without one');
    await messageWithText(bob.page, 'Edited without one').getByText('edited', { exact: true }).waitFor();
    await reactWith(messageWithText(alice.page, 'Edited without one'), '👍');
    await messageWithText(bob.page, 'Edited without one')
      .getByRole('button', { name: `👍 1: ${alice.name}` })
      .waitFor();
    expect(overHttp).toHaveLength(2);
    expect(overHttp.map((call) => call.split(' ')[0])).toEqual(['PUT', 'PUT']);
  });

  it('forwards a message to another chat, encrypted anew for its members', async () => {
    const { alice, bob } = await chatBetween();
    const carol = await signedUpPerson(veilWeb(), 'mca');
    await sayHi(alice.page, carol.name);
    await openChat(alice.page, bob.name);
    await sendMessage(bob.page, 'Pass this on');
    const menu = await openMenu(messageWithText(alice.page, 'Pass this on'));
    await menu.getByRole('menuitem', { name: 'Forward' }).click();
    const dialog = alice.page.getByRole('dialog', { name: 'Forward message' });
    await dialog.getByRole('button', { name: `Forward to ${carol.name}` }).click();
    await dialog.waitFor({ state: 'detached' });
    await openChat(carol.page, alice.name);
    await messageWithText(carol.page, 'Pass this on').waitFor();
    // Labelled as forwarded on both sides (said inside the ciphertext); the original is not.
    await messageWithText(carol.page, 'Pass this on').getByText('Forwarded').waitFor();
    await openChat(alice.page, carol.name);
    await messageWithText(alice.page, 'Pass this on').getByText('Forwarded').waitFor();
    expect(await messageWithText(bob.page, 'Pass this on').getByText('Forwarded').count()).toBe(0);
  });

  it('copies the text of a message', async () => {
    const { alice } = await chatBetween();
    await alice.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await sendMessage(alice.page, 'Copy me exactly');
    const menu = await openMenu(messageWithText(alice.page, 'Copy me exactly'));
    await menu.getByRole('menuitem', { name: 'Copy text' }).click();
    await expect
      .poll(() => alice.page.evaluate(() => navigator.clipboard.readText()))
      .toBe('Copy me exactly');
  });
});
