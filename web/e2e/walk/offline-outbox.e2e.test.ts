import { describe, expect, it } from 'vitest';
import { messageWithText, openChat, openChatFromUsers, sendMessage, signedUpPerson } from '../flows.ts';
import { useVeilWeb } from '../harness.ts';
import { droppableNetwork } from '../network-faults.ts';

describe('walk: the outbox through a silent network drop (browser)', { timeout: 180_000 }, () => {
  const suite = useVeilWeb();

  it('waits for the network while the socket still looks connected, then sends by itself', async () => {
    const veil = suite();
    let network: Awaited<ReturnType<typeof droppableNetwork>> | undefined;
    const alice = await signedUpPerson(veil, 'oal', async (page) => {
      network = await droppableNetwork(page);
    });
    const bob = await signedUpPerson(veil, 'obo');
    await openChatFromUsers(alice.page, bob.name);
    await sendMessage(alice.page, 'before the drop');
    await messageWithText(alice.page, 'before the drop').waitFor();
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, 'before the drop').waitFor();

    // The network goes while Alice's page is on another screen, then she opens the chat and writes.
    await alice.page.getByRole('link', { name: 'Users' }).click();
    network!.drop();
    await alice.page.goBack();
    await sendMessage(alice.page, 'written during the drop');
    const pending = alice.page.getByTestId('pending-message');
    await pending.filter({ hasText: 'Waiting for network' }).waitFor({ timeout: 30_000 });
    expect(await pending.getAttribute('data-status')).toBe('sending');
    expect(await pending.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    // The connection banner never said anything: the page did not notice the drop. A key log the
    // network did not bring is no key problem either.
    expect(await alice.page.getByTestId('connection-state').count()).toBe(0);
    expect(await alice.page.getByTestId('key-check-block').count()).toBe(0);

    network!.restore();
    await messageWithText(bob.page, 'written during the drop').waitFor({ timeout: 30_000 });
    await messageWithText(alice.page, 'written during the drop').waitFor();
    await expect.poll(() => pending.count()).toBe(0);
  });
});
