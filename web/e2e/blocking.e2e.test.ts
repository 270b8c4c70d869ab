import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  chatOption,
  currentUserId,
  messageWithText,
  openChat,
  openChatFromUsers,
  sameUserElsewhere,
  sayHi,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { cuttableSocket } from './network-faults.ts';

/**
 * Blocking between real browsers, each person in a context of their own: a block stops
 * one-to-one messages and new chats both ways, collapses the blocked person's group messages,
 * and unblocking from the profile's list or the Users page restores everything.
 */
describe('blocking (browser)', { timeout: 180_000 }, () => {
  const veilWeb = useVeilWeb();
  const refusal = 'You can’t reach this person.';

  /** How many messages the server holds in the one-to-one chat of `page`'s account with `otherName`. */
  const storedCount = (page: Page, otherName: string) =>
    page.evaluate(async (name) => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('accesstoken')}` };
      type Chat = { _id: string; isGroupChat: boolean; participants: { username: string }[] };
      const chats = (await (await fetch('/api/v1/chat/getallchats', { headers })).json()).data as Chat[];
      const chat = chats.find((c) => !c.isGroupChat && c.participants.some((p) => p.username === name))!;
      const history = await (await fetch(`/api/v1/chat/getallmessages/${chat._id}`, { headers })).json();
      return (history.data.messages as unknown[]).length;
    }, otherName);

  const createGroup = (page: Page, name: string, memberIds: string[]) =>
    page.evaluate(
      async ({ name, memberIds }) => {
        const res = await fetch('/api/v1/chat/creategroupchat', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${localStorage.getItem('accesstoken')}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ groupName: name, participants: memberIds }),
        });
        return res.status;
      },
      { name, memberIds },
    );

  it("shows a block made in one browser at once in the account's other browser", async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'bsa');
    const mallory = await signedUpPerson(veil, 'bsm');
    await sayHi(mallory.page, alice.name);
    const elsewhere = await sameUserElsewhere(veil, alice);
    await openChat(elsewhere, mallory.name);
    await elsewhere.getByRole('textbox', { name: 'Message' }).waitFor();

    await openChat(alice.page, mallory.name);
    await chatOption(alice.page, `Block ${mallory.name}`);
    await elsewhere.getByText(`You blocked ${mallory.name}. Unblock to send.`).waitFor();
    await alice.page
      .getByTestId('blocked-composer')
      .getByRole('button', { name: `Unblock ${mallory.name}` })
      .click();
    await elsewhere.getByRole('textbox', { name: 'Message' }).waitFor();
  });

  it("shows a block made in the account's other browser while this one's socket was down once it connects", async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'bwa');
    const mallory = await signedUpPerson(veil, 'bwm');
    await sayHi(mallory.page, alice.name);
    let socket!: Awaited<ReturnType<typeof cuttableSocket>>;
    const elsewhere = await sameUserElsewhere(
      {
        newPage: async () => {
          const page = await veil.newPage();
          socket = await cuttableSocket(page);
          return page;
        },
      },
      alice,
    );
    await openChat(elsewhere, mallory.name);
    await elsewhere.getByRole('textbox', { name: 'Message' }).waitFor();

    // The other browser loses its socket, so `blocks updated` cannot reach it.
    await socket.cut();
    await elsewhere.getByTestId('connection-state').waitFor();
    await openChat(alice.page, mallory.name);
    await chatOption(alice.page, `Block ${mallory.name}`);
    await alice.page.getByText(`You blocked ${mallory.name}. Unblock to send.`).waitFor();
    expect(await elsewhere.getByRole('textbox', { name: 'Message' }).count()).toBe(1);

    // Its connection reads the block list again: the block shows without a reload.
    socket.restore();
    await elsewhere.getByText(`You blocked ${mallory.name}. Unblock to send.`).waitFor({ timeout: 20_000 });
  });

  it('stops messages and new chats both ways, collapses group messages, and unblocking restores them', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'bal');
    const mallory = await signedUpPerson(veil, 'bma');
    const carol = await signedUpPerson(veil, 'bca');
    const dave = await signedUpPerson(veil, 'bda');
    const [aliceId, malloryId] = await Promise.all([currentUserId(alice.page), currentUserId(mallory.page)]);

    await sayHi(mallory.page, alice.name);
    await openChat(alice.page, mallory.name);
    await messageWithText(alice.page, `Hi ${alice.name}`).waitFor();

    // Alice blocks Mallory from the chat's header: she cannot send either, until she unblocks.
    await chatOption(alice.page, `Block ${mallory.name}`);
    await alice.page.getByText(`You blocked ${mallory.name}. Unblock to send.`).waitFor();
    expect(await alice.page.getByRole('textbox', { name: 'Message' }).count()).toBe(0);

    // Mallory's message is refused, and never reaches Alice.
    await sendMessage(mallory.page, 'Let me in');
    await mallory.page.getByRole('alert').filter({ hasText: refusal }).first().waitFor();
    expect(await storedCount(alice.page, mallory.name)).toBe(1);
    expect(await messageWithText(alice.page, 'Let me in').count()).toBe(0);

    // No new chat either way: Alice blocks Carol on the Users page; neither can open a chat.
    await alice.page.goto('/users');
    await alice.page.getByLabel('Search users').fill(carol.name);
    await alice.page.getByRole('button', { name: `Block ${carol.name}` }).click();
    await alice.page.getByRole('button', { name: `Unblock ${carol.name}` }).waitFor();
    for (const [page, other] of [
      [carol.page, alice.name],
      [alice.page, carol.name],
    ] as const) {
      await page.goto('/users');
      await page.getByLabel('Search users').fill(other);
      await page.getByRole('button', { name: `${other}: Say Hi` }).click();
      await page.getByRole('alert').filter({ hasText: refusal }).waitFor();
      expect(page.url()).toContain('/users');
    }

    // Carol, blocked by Alice, cannot put her in a group; in one Dave makes with both Alice and
    // Mallory, Mallory's message reaches Alice collapsed, until shown.
    const groupName = uniqueName('Shared');
    expect(await createGroup(carol.page, groupName, [aliceId])).toBe(403);
    expect(await createGroup(dave.page, groupName, [aliceId, malloryId])).toBe(201);
    await openChat(mallory.page, groupName);
    await sendMessage(mallory.page, 'Group hello');
    await messageWithText(mallory.page, 'Group hello').waitFor();
    await openChat(alice.page, groupName);
    const collapsed = alice.page.getByTestId('blocked-message');
    await collapsed.getByText('Blocked user').waitFor();
    expect(await messageWithText(alice.page, 'Group hello').count()).toBe(0);
    await collapsed.getByRole('button', { name: 'Show' }).click();
    await messageWithText(alice.page, 'Group hello').waitFor();

    // Alice unblocks Mallory from her profile's list; messages flow both ways again.
    await alice.page.goto('/profile');
    const list = alice.page.getByTestId('blocked-users');
    const entry = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    await entry(mallory.name)
      .getByRole('button', { name: `Unblock ${mallory.name}` })
      .click();
    await entry(mallory.name).waitFor({ state: 'detached' });
    await entry(carol.name).waitFor();
    await openChat(mallory.page, alice.name);
    await openChat(alice.page, mallory.name);
    await sendMessage(alice.page, 'Welcome back');
    await messageWithText(mallory.page, 'Welcome back').waitFor();
    await sendMessage(mallory.page, 'Thanks');
    await messageWithText(alice.page, 'Thanks').waitFor();

    // And Carol, unblocked on the Users page, can open a chat with Alice again.
    await alice.page.goto('/users');
    await alice.page.getByLabel('Search users').fill(carol.name);
    await alice.page.getByRole('button', { name: `Unblock ${carol.name}` }).click();
    await alice.page.getByRole('button', { name: `Block ${carol.name}` }).waitFor();
    await openChatFromUsers(carol.page, alice.name);
  });
});
