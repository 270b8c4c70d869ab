import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  login,
  logout,
  messageWithText,
  openChat,
  sayHi,
  sendMessage,
  signUpAndLogIn,
  uniqueName,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';
import { cuttableSocket } from './network-faults.ts';

/** Typing indicator, read receipts and presence between two browsers. */
describe('realtime (browser)', { timeout: 150_000 }, () => {
  let veil: VeilWeb;
  beforeAll(async () => {
    veil = await startVeilWeb();
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(() => veil?.stop());

  const pair = async () => {
    const alice = { page: await veil.newPage(), name: uniqueName('ral') };
    const bob = { page: await veil.newPage(), name: uniqueName('rbo') };
    await signUpAndLogIn(alice.page, alice.name);
    await signUpAndLogIn(bob.page, bob.name);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    return { alice, bob };
  };

  it('shows "X typing..." while the other side types and clears it when they stop', async () => {
    const { alice, bob } = await pair();
    const indicator = alice.page.getByTestId('typing-indicator');
    await bob.page.getByRole('textbox', { name: 'Message' }).pressSequentially('typing away', { delay: 40 });
    await indicator.getByText(`${bob.name} typing...`).waitFor();
    // A pause to think (1.5 s, as a person makes it) does not make it flicker: it holds 3 s
    // after the last key, as Signal's does.
    await alice.page.evaluate(() => {
      const shown = document.querySelector('[data-testid="typing-indicator"]')!;
      const w = window as unknown as { typingGaps: number };
      w.typingGaps = 0;
      new MutationObserver(() => {
        if (shown.textContent === '') w.typingGaps += 1;
      }).observe(shown, { childList: true, characterData: true, subtree: true });
    });
    await bob.page.waitForTimeout(1500);
    await bob.page.getByRole('textbox', { name: 'Message' }).pressSequentially(' more', { delay: 40 });
    await bob.page.waitForTimeout(1500);
    await bob.page.getByRole('textbox', { name: 'Message' }).pressSequentially('!', { delay: 40 });
    expect(await alice.page.evaluate(() => (window as unknown as { typingGaps: number }).typingGaps)).toBe(0);
    // Bob stops: "stop typing" 3 s after the last key clears it.
    await expect.poll(() => indicator.textContent(), { timeout: 10_000 }).toBe('');

    // Sending clears it at once too.
    await bob.page.getByRole('textbox', { name: 'Message' }).pressSequentially('and send', { delay: 40 });
    await indicator.getByText(`${bob.name} typing...`).waitFor();
    await bob.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await messageWithText(alice.page, 'typing away more!and send').waitFor();
    await expect.poll(() => indicator.textContent(), { timeout: 5000 }).toBe('');
  });

  it('turns one grey tick into two once the recipient has seen the message', async () => {
    const { alice, bob } = await pair();
    // Bob looks elsewhere, so Alice's next message stays unseen.
    await bob.page.getByRole('link', { name: 'Users' }).click();
    await sendMessage(alice.page, 'Did you read this?');
    const ticks = messageWithText(alice.page, 'Did you read this?').getByTestId('ticks');
    await ticks.waitFor();
    expect(await ticks.getAttribute('aria-label')).toBe('Sent');
    expect(await ticks.getAttribute('data-seen')).toBe('false');

    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, 'Did you read this?').waitFor();
    await expect.poll(() => ticks.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Seen');

    // A message arriving while the chat is open is reported at once.
    await sendMessage(alice.page, 'And this one?');
    await messageWithText(bob.page, 'And this one?').waitFor();
    await expect
      .poll(
        () => messageWithText(alice.page, 'And this one?').getByTestId('ticks').getAttribute('aria-label'),
        { timeout: 10_000 },
      )
      .toBe('Seen');
  });

  it('shows a green dot while the contact is online and removes it when they log out', async () => {
    const { alice, bob } = await pair();
    const bobItem = alice.page.getByTestId('chat-item').filter({ hasText: bob.name });
    await bobItem.getByTestId('online-dot').waitFor();
    await alice.page.locator('.chat-header').getByTestId('online-dot').waitFor();

    await logout(bob.page);
    await bobItem.getByTestId('online-dot').waitFor({ state: 'detached' });

    await login(bob.page, bob.name, 'correct horse 1');
    await bobItem.getByTestId('online-dot').waitFor();
  });

  it('retries a send whose ack was lost, and the message is stored and shown once', async () => {
    const alice = { page: await veil.newPage(), name: uniqueName('lal') };
    const bob = { page: await veil.newPage(), name: uniqueName('lbo') };
    // Fault injection: the server's first answer to one of Bob's sends never reaches his page.
    // (Socket.IO acks are "43<id>[...]"; a send's receipt starts with {"ok":true,"data":{"_id".)
    let lostAcks = 0;
    await bob.page.routeWebSocket(/\/socket\.io\//, (route) => {
      const server = route.connectToServer();
      server.onMessage((frame) => {
        if (lostAcks === 0 && typeof frame === 'string' && /^43\d+\[\{"ok":true,"data":\{"_id"/.test(frame)) {
          lostAcks += 1;
          return;
        }
        route.send(frame);
      });
    });
    const httpSends: string[] = [];
    bob.page.on('request', (r) => r.url().includes('/api/v1/message/') && httpSends.push(r.url()));
    await signUpAndLogIn(alice.page, alice.name);
    await signUpAndLogIn(bob.page, bob.name);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();

    await sendMessage(bob.page, 'Said once, acked late');
    // The retry comes after the 10 s wait for the lost ack.
    await messageWithText(bob.page, 'Said once, acked late').waitFor({ timeout: 20_000 });
    expect(lostAcks).toBe(1);
    expect(httpSends.filter((url) => url.includes('send'))).toEqual([]);
    await messageWithText(alice.page, 'Said once, acked late').waitFor();
    expect(await bob.page.getByRole('alert').count()).toBe(0);
    await bob.page.reload();
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    for (const page of [alice.page, bob.page]) {
      await expect.poll(() => messageWithText(page, 'Said once, acked late').count()).toBe(1);
    }
  });

  it('retries an HTTP send whose answer was lost, and the message is stored and shown once', async () => {
    const alice = { page: await veil.newPage(), name: uniqueName('hal') };
    const bob = { page: await veil.newPage(), name: uniqueName('hbo') };
    // Alice's websocket never connects, so her sends go over HTTP. Fault injection: her first
    // send reaches the server, which stores it, but its answer never reaches her page.
    await alice.page.routeWebSocket(/\/socket\.io\//, (route) => route.close());
    const bodies: unknown[] = [];
    await alice.page.route('**/api/v1/message/sendIndividualMessage/**', async (route) => {
      bodies.push(route.request().postDataJSON());
      if (bodies.length > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });
    await signUpAndLogIn(alice.page, alice.name);
    await signUpAndLogIn(bob.page, bob.name);
    await sayHi(alice.page, bob.name);
    await messageWithText(alice.page, `Hi ${bob.name}`).waitFor();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]); // the same clientMessageId, so the server stores it once
    expect(await alice.page.getByRole('alert').count()).toBe(0);
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    await alice.page.reload();
    await messageWithText(alice.page, `Hi ${bob.name}`).waitFor();
    for (const page of [alice.page, bob.page]) {
      await expect.poll(() => messageWithText(page, `Hi ${bob.name}`).count()).toBe(1);
    }
  });

  it('catches up after a reconnect: missed messages and new chats appear', async () => {
    const alice = { page: await veil.newPage(), name: uniqueName('cal') };
    const bob = { page: await veil.newPage(), name: uniqueName('cbo') };
    const carol = { page: await veil.newPage(), name: uniqueName('cca') };
    const bobsSocket = await cuttableSocket(bob.page);
    await signUpAndLogIn(alice.page, alice.name);
    await signUpAndLogIn(bob.page, bob.name);
    await signUpAndLogIn(carol.page, carol.name);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();

    await bobsSocket.cut();
    await sendMessage(alice.page, 'Sent while you were away');
    await messageWithText(alice.page, 'Sent while you were away').getByTestId('ticks').waitFor();
    await sayHi(carol.page, bob.name);
    await messageWithText(carol.page, `Hi ${bob.name}`).waitFor();
    expect(await messageWithText(bob.page, 'Sent while you were away').count()).toBe(0);
    // Without his socket Bob still sends: over HTTP instead.
    const httpSend = bob.page.waitForRequest((r) =>
      r.url().includes('/api/v1/message/sendIndividualMessage/'),
    );
    await sendMessage(bob.page, 'Sent without a socket');
    await httpSend;
    await messageWithText(alice.page, 'Sent without a socket').waitFor();

    bobsSocket.restore();
    await messageWithText(bob.page, 'Sent while you were away').waitFor({ timeout: 20_000 });
    await bob.page.getByTestId('chat-item').filter({ hasText: carol.name }).waitFor();
    await expect.poll(() => bob.page.getByTestId('message').count()).toBe(3);
  });
});
