import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startPushService, type TestPushService } from '@veil/test-env';
import { currentUserId, openChat, sayHi, signedUpPerson } from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';
import { storedKeyLogs, subscribeAtTestPushService } from './push-support.ts';
import {
  callPanel,
  callStatus,
  incomingCall,
  keepPeerConnections,
  mediaKeepsFlowing,
} from './calls-support.ts';

interface Shown {
  title: string;
  body: string;
  url: string | undefined;
}

/**
 * A call rings through Web Push when the callee has no Veil tab open. As in push.e2e, the server
 * pushes to a push service on loopback that the test starts, and the test hands what arrived to
 * the callee's service worker through the DevTools protocol, as the browser's push service would.
 * The worker checks the caller's signed signal before it shows the call; the tab its notification
 * opens rings back, the caller offers again, and the call connects as any other.
 */
describe('calls through Web Push (browser)', { timeout: 240_000 }, () => {
  const poll = { timeout: 30_000, interval: 250 };
  let veil: VeilWeb;
  let pushService: TestPushService;
  beforeAll(async () => {
    [veil, pushService] = await Promise.all([
      startVeilWeb({ env: { PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' } }),
      startPushService(),
    ]);
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(async () => {
    await veil?.stop();
    await pushService?.close();
  });

  /** Subscribes `page` at the test's push service; `deliver` hands data to its worker with no Veil window open. */
  const subscribe = async (page: Page) => {
    const { browser, deliverToWorker } = await subscribeAtTestPushService(page, veil.url, pushService);
    /** With no page of Veil's origin open: an open one would be a Veil window. */
    const deliver = async (data: string) => {
      if (page.url() !== 'about:blank') await page.goto('about:blank');
      await deliverToWorker(data);
    };
    return { browser, deliver };
  };

  /**
   * What the worker shows, read from a page of Veil's origin that is not the app (the icon), so
   * that reading opens no socket and no Veil window.
   */
  const notifications = async (page: Page): Promise<Shown[]> => {
    if (!page.url().endsWith('/favicon.svg')) await page.goto('/favicon.svg');
    return page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        url: (n.data as { url?: string } | null)?.url,
      })),
    );
  };

  it('rings a callee with no tab open through the service worker; the opened tab rings and the call connects', async () => {
    const alice = await signedUpPerson(veil, 'qal', keepPeerConnections);
    const bob = await signedUpPerson(veil, 'qbo', keepPeerConnections);
    await sayHi(alice.page, bob.name);
    // Bob's page checks Alice's key log as her chat opens, and stores it for the worker.
    await openChat(bob.page, alice.name);
    const [aliceId, bobId] = [await currentUserId(alice.page), await currentUserId(bob.page)];
    await expect.poll(() => storedKeyLogs(bob.page, bobId), poll).toContain(aliceId);
    const { browser, deliver } = await subscribe(bob.page);

    // Bob closes Veil: Alice sees him go, so the gateway has no socket of his either.
    await openChat(alice.page, bob.name);
    const status = alice.page.getByTestId('chat-status');
    await bob.page.goto('about:blank');
    await status.getByText(/^last seen /).waitFor();

    const before = pushService.received.length;
    await alice.page.getByRole('button', { name: `Video call with ${bob.name}` }).click();
    await expect.poll(() => pushService.received.length, poll).toBe(before + 1);
    const pushed = browser.decrypt(pushService.received[before]!.body);
    const call = JSON.parse(pushed) as { kind: string; callId: string };
    expect(call.kind).toBe('call');

    // A server making up a call: Alice's signal handed over as another call's. Her signature
    // covers the call id, so it does not check and shows nothing (a notification of its own
    // tag would stay beside the genuine one, handed over after it, which shows).
    await deliver(JSON.stringify({ ...call, callId: 'f'.repeat(32) }));
    await deliver(pushed);
    await expect
      .poll(async () => (await notifications(bob.page)).map(({ title, body }) => ({ title, body })), poll)
      .toEqual([{ title: alice.name, body: 'Incoming video call' }]);

    // Bob opens the notification's address: his tab rings, he accepts, media flows both ways.
    const [shown] = await notifications(bob.page);
    expect(shown!.url).toContain(call.callId);
    await bob.page.goto(shown!.url!);
    const ringing = incomingCall(bob.page);
    await expect.poll(() => ringing.textContent(), poll).toContain(`${alice.name} is video calling you`);
    await ringing.getByRole('button', { name: 'Accept with video' }).click();
    for (const page of [alice.page, bob.page])
      await expect.poll(() => callPanel(page).getAttribute('data-phase'), poll).toBe('active');
    for (const page of [alice.page, bob.page]) await mediaKeepsFlowing(page, { atLeast: 10_000 });
    await alice.page.getByRole('button', { name: 'Hang up' }).click();
    await expect.poll(() => callStatus(bob.page).textContent(), poll).toBe('The other side hung up');
  });
});
