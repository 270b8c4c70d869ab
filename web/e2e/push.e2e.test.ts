import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { startPushService, type TestPushService } from '@veil/test-env';
import { currentUserId, messageWithText, openChat, sayHi, sendMessage, signedUpPerson } from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';

/**
 * Web Push end to end. Headless Chromium has no push service of its own, so the server pushes
 * through the `web-push` library to one on loopback that the test starts (with keys the test
 * holds), and the test hands what arrived, opened, to the browser's service worker through the
 * DevTools protocol, as the browser's push service would. The worker decrypts it with the key
 * in IndexedDB and shows the sender and the text.
 */
describe('push notifications (browser)', { timeout: 150_000 }, () => {
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

  /** The page's service worker registration id, as the DevTools protocol names it. */
  const workerRegistration = async (page: Page): Promise<{ cdp: CDPSession; registrationId: string }> => {
    const cdp = await page.context().newCDPSession(page);
    const scope = `${veil.url}/`;
    const found = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const live = registrations.find((r) => r.scopeURL === scope && !r.isDeleted);
        if (live) resolve(live.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    return { cdp, registrationId: await found };
  };

  const notifications = (page: Page) =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
      })),
    );

  it('shows a pushed message, decrypted by the service worker, only while no Veil window is visible', async () => {
    const [alice, bob, carol] = await Promise.all([
      signedUpPerson(veil, 'pal'),
      signedUpPerson(veil, 'pbo'),
      signedUpPerson(veil, 'pca'),
    ]);
    await bob.page.context().grantPermissions(['notifications'], { origin: veil.url });
    await sayHi(alice.page, bob.name);
    await sayHi(carol.page, bob.name);

    // Bob turns notifications on: the service worker is registered from that click.
    await bob.page.goto('/profile');
    const toggle = bob.page.getByRole('switch', { name: /Notify me of new messages/ });
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await bob.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const { cdp, registrationId } = await workerRegistration(bob.page);

    // This browser's subscription, at the test's push service (the browser could not make one).
    const bobId = await currentUserId(bob.page);
    const browser = pushService.subscription(`browser-${bobId}`);
    const subscribed = await bob.page.evaluate(
      async (body) =>
        (
          await fetch('/api/v1/push/subscriptions', {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${localStorage.getItem('accesstoken')}`,
            },
            body: JSON.stringify(body),
          })
        ).status,
      { endpoint: browser.endpoint, keys: browser.keys },
    );
    expect(subscribed).toBe(201);

    /** `from` sends `text`; resolves with the push for it, opened with the subscription's keys. */
    const pushFor = async (from: Page, text: string) => {
      const before = pushService.received.length;
      await sendMessage(from, text);
      await expect.poll(() => pushService.received.length, { timeout: 15_000 }).toBe(before + 1);
      const opened = browser.decrypt(pushService.received[before]!.body);
      expect(opened).not.toContain(text);
      return opened;
    };
    const deliver = (data: string) =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin: veil.url, registrationId, data });

    // Bob has Veil open and visible: Carol's message shows there, and the worker shows nothing.
    await openChat(carol.page, bob.name);
    await openChat(bob.page, carol.name);
    await deliver(await pushFor(carol.page, 'seen in the open tab'));
    await messageWithText(bob.page, 'seen in the open tab').waitFor();

    // Bob closes Veil; Alice's message is shown with her name and the decrypted text, and
    // Carol's, pushed while Veil was visible, is not there (a chat's notifications share a tag:
    // hers would be a second one).
    await openChat(alice.page, bob.name);
    await bob.page.goto('about:blank');
    await deliver(await pushFor(alice.page, 'the train leaves at 7'));
    await bob.page.goto('/all-chats');
    await expect
      .poll(() => notifications(bob.page), { timeout: 15_000 })
      .toEqual([{ title: alice.name, body: 'the train leaves at 7' }]);
  });
});
