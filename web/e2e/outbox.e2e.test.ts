import { describe, expect, it } from 'vitest';
import { messageWithText, openChat, sayHi, sendMessage, signedUpPerson } from './flows.ts';
import { useVeilWeb } from './harness.ts';

/** Its own server: the test stops and starts it. */
describe('connection state and the outbox (browser)', { timeout: 180_000 }, () => {
  const suite = useVeilWeb();

  it('keeps messages written while the server is down and sends each once, in order, when it is back', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'xal');
    const bob = await signedUpPerson(veil, 'xbo');
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    const aliceChat = alice.page.url();
    await bob.page.getByTestId('online-dot').first().waitFor();

    await veil.stopServer();
    const state = alice.page.getByTestId('connection-state');
    await state.filter({ hasText: 'Connecting…' }).waitFor();
    // Nobody's presence is known without a connection.
    expect(await bob.page.getByTestId('online-dot').count()).toBe(0);

    await sendMessage(alice.page, 'written offline 1');
    await sendMessage(alice.page, 'written offline 2');
    const pending = alice.page.getByTestId('pending-message');
    await expect.poll(() => pending.count()).toBe(2);
    // Tried and unanswered: it waits for the network, never "Not sent".
    await expect.poll(() => pending.first().textContent()).toContain('Waiting for network…');
    // Kept across a closed page: the next page of the account sends it.
    await alice.page.close();
    const again = await alice.page.context().newPage();
    await veil.startServer();
    await again.goto(aliceChat);
    await messageWithText(again, 'written offline 2').waitFor({ timeout: 30_000 });
    await expect.poll(() => again.getByTestId('pending-message').count()).toBe(0);
    await state.waitFor({ state: 'detached' }).catch(() => undefined);
    expect(await again.getByTestId('connection-state').count()).toBe(0);

    // Bob, whose page stayed open through the restart, gets both, once each and in order.
    await messageWithText(bob.page, 'written offline 2').waitFor({ timeout: 30_000 });
    const texts = await bob.page.getByTestId('message-text').allTextContents();
    expect(texts.filter((text) => text.startsWith('written offline'))).toEqual([
      'written offline 1',
      'written offline 2',
    ]);
    await again.reload();
    await messageWithText(again, 'written offline 2').waitFor();
    expect(
      (await again.getByTestId('message-text').allTextContents()).filter((t) => t.startsWith('written')),
    ).toEqual(['written offline 1', 'written offline 2']);
    await expect.poll(() => bob.page.getByTestId('connection-state').count(), { timeout: 15_000 }).toBe(0);
  });

  it('shows a refused message as not sent, with Retry and Discard', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'ral');
    const bob = await signedUpPerson(veil, 'rbo');
    await sayHi(alice.page, bob.name);
    // The server refuses the next send (its answer says why); the message stays, marked not sent.
    let refuse = true;
    await alice.page.routeWebSocket(/\/socket\.io\//, (route) => route.close());
    await alice.page.route('**/api/v1/message/sendIndividualMessage/**', (route) =>
      refuse
        ? route.fulfill({
            status: 413,
            contentType: 'application/json',
            body: JSON.stringify({ success: false, message: 'Too large', code: 'PAYLOAD_TOO_LARGE' }),
          })
        : route.continue(),
    );
    await alice.page.reload();
    const pending = alice.page.getByTestId('pending-message');
    const failed = alice.page.locator('[data-testid="pending-message"][data-status="failed"]');

    await sendMessage(alice.page, 'discard me');
    await failed.waitFor();
    expect(await failed.getByRole('alert').textContent()).toContain('Failed to send message');
    await failed.getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => pending.count()).toBe(0);

    await sendMessage(alice.page, 'retry me');
    await failed.waitFor();
    refuse = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await messageWithText(alice.page, 'retry me').waitFor();
    await expect.poll(() => pending.count()).toBe(0);
    expect(await messageWithText(alice.page, 'discard me').count()).toBe(0);
  });
});
