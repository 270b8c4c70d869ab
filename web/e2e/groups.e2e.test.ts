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
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { cuttableSocket } from './network-faults.ts';
import { signingKeyAt, verifyGroupChain, type SignedGroupChange } from '@veil/crypto';

/** Group membership between three real browsers: adding, removing and leaving, with system lines. */
describe('groups (browser)', { timeout: 150_000 }, () => {
  const veilWeb = useVeilWeb();

  const systemLine = (page: Page, text: string) => page.getByTestId('system-line').filter({ hasText: text });

  it('adds a member who reads from then on, removes one who stops receiving, and lets one leave', async () => {
    const alice = await signedUpPerson(veilWeb(), 'qal');
    const bob = await signedUpPerson(veilWeb(), 'qbo');
    const carol = await signedUpPerson(veilWeb(), 'qca');
    const groupName = uniqueName('Crew');
    const bobId = await currentUserId(bob.page);
    await createGroupOverApi(alice.page, groupName, [bobId]);
    await openChat(alice.page, groupName);
    await openChat(bob.page, groupName);
    await systemLine(bob.page, `${alice.name} created the group`).waitFor();
    await sendMessage(alice.page, 'Before carol');
    await messageWithText(bob.page, 'Before carol').waitFor();

    // Alice, the admin, adds Carol; the panel says what Carol will be able to read.
    let panel = await openGroupInfo(alice.page);
    await panel.getByText('New members read messages from the moment they join').waitFor();
    await panel.getByRole('checkbox', { name: carol.name }).check();
    await panel.getByRole('button', { name: 'Add to group' }).click();
    await panel.getByRole('button', { name: `Remove ${carol.name}` }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    await systemLine(alice.page, `You added ${carol.name}`).waitFor();
    await systemLine(bob.page, `${alice.name} added ${carol.name}`).waitFor();

    // The group reaches Carol's list live; she reads from the moment she joined.
    await openChat(carol.page, groupName);
    await systemLine(carol.page, `${alice.name} added you`).waitFor();
    expect(await messageWithText(carol.page, 'Before carol').count()).toBe(0);
    await sendMessage(carol.page, 'Hello from carol');
    await messageWithText(alice.page, 'Hello from carol').waitFor();
    await messageWithText(bob.page, 'Hello from carol').waitFor();

    // Bob is not an admin: he is offered no way to change members.
    const bobPanel = await openGroupInfo(bob.page);
    expect(await bobPanel.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await bobPanel.getByRole('button', { name: 'Close' }).click();

    // Alice removes Bob: his group turns read-only, and later messages never reach him.
    panel = await openGroupInfo(alice.page);
    await panel.getByRole('button', { name: `Remove ${bob.name}` }).click();
    await panel.getByRole('button', { name: `Remove ${bob.name}` }).waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Close' }).click();
    await systemLine(alice.page, `You removed ${bob.name}`).waitFor();
    await systemLine(carol.page, `${alice.name} removed ${bob.name}`).waitFor();
    await systemLine(bob.page, `${alice.name} removed you`).waitFor();
    await sendMessage(alice.page, 'After bob');
    await messageWithText(carol.page, 'After bob').waitFor();
    expect(await messageWithText(bob.page, 'After bob').count()).toBe(0);

    // Carol leaves.
    carol.page.once('dialog', (dialog) => void dialog.accept());
    await (await openGroupInfo(carol.page)).getByRole('button', { name: 'Leave group' }).click();
    await systemLine(alice.page, `${carol.name} left`).waitFor();
    await carol.page.getByTestId('chat-item').filter({ hasText: groupName }).waitFor({ state: 'detached' });

    // Every change the browsers made was signed: Alice's snapshot of the group created unsigned,
    // her add and removal, Carol's leaving; the chain verifies against the key logs.
    const served = await alice.page.evaluate(async (name) => {
      const call = async (path: string) =>
        (
          await (
            await fetch(`/api/v1/${path}`, {
              headers: { Authorization: `Bearer ${localStorage.getItem('accesstoken')}` },
            })
          ).json()
        ).data;
      const chats: { _id: string; chatName: string }[] = await call('chat/getallchats');
      const chatId = chats.find((chat) => chat.chatName === name)!._id;
      const entries = await call(`chat/${chatId}/changes`);
      const signers = [...new Set(entries.flatMap((e: { by: string }) => [e.by]))] as string[];
      const logs = Object.fromEntries(
        await Promise.all(signers.map(async (id) => [id, (await call(`users/${id}/keyLog`)).entries])),
      );
      return { entries, logs };
    }, groupName);
    const chain = served.entries.flatMap((entry: { signedChange: SignedGroupChange | null }) =>
      entry.signedChange ? [entry.signedChange] : [],
    );
    expect(chain.map((change: SignedGroupChange) => change.kind)).toEqual([
      'snapshot',
      'members-added',
      'member-removed',
      'member-left',
    ]);
    const check = await verifyGroupChain(chain, (id, at) => signingKeyAt(served.logs[id] ?? [], at));
    expect(check.ok && check.state?.members).toEqual([await currentUserId(alice.page)]);

    // Alice's browser, opening the group afresh, checks every line against that chain: each
    // reads as it happened, none as unverified.
    await alice.page.reload();
    await openChat(alice.page, groupName);
    panel = await openGroupInfo(alice.page);
    await panel.getByTestId('group-signing').filter({ hasText: 'Group state signed by You on' }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    for (const line of [`You added ${carol.name}`, `You removed ${bob.name}`, `${carol.name} left`])
      await systemLine(alice.page, line).waitFor();
    expect(await systemLine(alice.page, 'could not be verified').count()).toBe(0);
  });

  it('shows an open group as changed while its socket was down once the socket connects', async () => {
    const alice = await signedUpPerson(veilWeb(), 'sal');
    const bob = await signedUpPerson(veilWeb(), 'sbo');
    const carol = await signedUpPerson(veilWeb(), 'sca');
    const groupName = uniqueName('Crew');
    await createGroupOverApi(alice.page, groupName, [await currentUserId(bob.page)]);
    await openChat(alice.page, groupName);
    await openChat(bob.page, groupName);

    // Bob's page loads the group with its socket held down, so `chat updated` cannot reach it.
    const socket = await cuttableSocket(bob.page);
    await socket.cut();
    await bob.page.reload();
    await systemLine(bob.page, `${alice.name} created the group`).waitFor();
    const panel = await openGroupInfo(alice.page);
    await panel.getByRole('checkbox', { name: carol.name }).check();
    await panel.getByRole('button', { name: 'Add to group' }).click();
    await panel.getByRole('button', { name: `Remove ${carol.name}` }).waitFor();
    await panel.getByRole('button', { name: 'Close' }).click();
    await systemLine(alice.page, `You added ${carol.name}`).waitFor();
    expect(await systemLine(bob.page, `${alice.name} added ${carol.name}`).count()).toBe(0);

    // Its connection fetches the open group again: the change shows without a reload.
    socket.restore();
    await systemLine(bob.page, `${alice.name} added ${carol.name}`).waitFor({ timeout: 20_000 });
  });
});
