import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startPushService, type TestPushService } from '@veil/test-env';
import {
  createGroupOverApi,
  currentUserId,
  logout,
  messageWithText,
  openChat,
  sayHi,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';
import { storedKeyLogs, subscribeAtTestPushService } from './push-support.ts';

/**
 * Web Push end to end. Headless Chromium has no push service of its own, so the server pushes
 * through the `web-push` library to one on loopback that the test starts (with keys the test
 * holds), and the test hands what arrived, opened, to the browser's service worker through the
 * DevTools protocol, as the browser's push service would. The worker decrypts it with the key
 * in IndexedDB, checks the sender's signature against the key log the page stored there, and
 * shows the sender and the text.
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

  const notifications = (page: Page) =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
      })),
    );

  /**
   * Subscribes `page` at the test's push service. Answers how to push a message sent from another
   * page to it and hand that push to its worker, and how to read what the worker shows.
   */
  const pushesTo = async (page: Page) => {
    const {
      userId,
      browser,
      deliverToWorker: deliver,
    } = await subscribeAtTestPushService(page, veil.url, pushService);

    /**
     * `from` sends `text` (typed as `write` types it, when given); resolves with the push for it,
     * opened with the subscription's keys.
     */
    const pushFor = async (from: Page, text: string, write = () => sendMessage(from, text)) => {
      const before = pushService.received.length;
      await write();
      await expect.poll(() => pushService.received.length, { timeout: 15_000 }).toBe(before + 1);
      const opened = browser.decrypt(pushService.received[before]!.body);
      expect(opened).not.toContain(text);
      return opened;
    };
    /** Hands `data` to the worker with no Veil window open, then opens Veil to read what shows. */
    const shownFor = async (data: string) => {
      await page.goto('about:blank');
      await deliver(data);
      await page.goto('/all-chats');
    };
    return { userId, pushFor, deliver, shownFor };
  };

  it('shows a pushed message, decrypted by the service worker, only while no Veil window is visible', async () => {
    const [alice, bob, carol] = await Promise.all([
      signedUpPerson(veil, 'pal'),
      signedUpPerson(veil, 'pbo'),
      signedUpPerson(veil, 'pca'),
    ]);
    await sayHi(alice.page, bob.name);
    await sayHi(carol.page, bob.name);
    const { userId: bobId, pushFor, deliver, shownFor } = await pushesTo(bob.page);

    // Bob has Veil open and visible: Carol's message shows there, and the worker shows nothing.
    await openChat(carol.page, bob.name);
    await openChat(bob.page, carol.name);
    await deliver(await pushFor(carol.page, 'seen in the open tab'));
    await messageWithText(bob.page, 'seen in the open tab').waitFor();

    // Bob's page checked Alice's key log for her chat's preview, and stored it for the worker.
    const aliceId = await currentUserId(alice.page);
    await expect.poll(() => storedKeyLogs(bob.page, bobId)).toContain(aliceId);

    // Bob closes Veil; Alice's message is shown with her name and the decrypted text, its
    // signature checked, and Carol's, pushed while Veil was visible, is not there (a chat's
    // notifications share a tag: hers would be a second one).
    await openChat(alice.page, bob.name);
    await shownFor(await pushFor(alice.page, 'the train leaves at 7'));
    await expect
      .poll(() => notifications(bob.page), { timeout: 15_000 })
      .toEqual([{ title: alice.name, body: 'the train leaves at 7' }]);

    // A push a lying server altered: each decrypts as well, but its signature does not hold for
    // what it says, so it shows Alice's name and no text. Each replaces the genuine one before it.
    const altered = (opened: string, change: (message: Record<string, unknown>) => void) => {
      const push = JSON.parse(opened) as { message: Record<string, unknown> };
      change(push.message);
      return JSON.stringify(push);
    };
    const generic = [{ title: alice.name, body: 'New message' }];
    const forgeries: [string, (message: Record<string, unknown>) => void][] = [
      ['another client message id', (message) => (message.clientMessageId = 'forged-0001')],
      ['no signature', (message) => delete message.signature],
      ['a group message', (message) => (message.isGroupChat = true)],
      [
        "another signature's bytes",
        (message) => {
          const signature = message.signature as { value: string; signedAt: string };
          const value = `${signature.value.startsWith('A') ? 'B' : 'A'}${signature.value.slice(1)}`;
          message.signature = { ...signature, value };
        },
      ],
    ];
    for (const [index, [what, change]] of forgeries.entries()) {
      const text = `genuine ${index}`;
      const genuine = await pushFor(alice.page, text);
      await shownFor(genuine);
      await expect
        .poll(() => notifications(bob.page), { timeout: 15_000 })
        .toEqual([{ title: alice.name, body: text }]);
      await shownFor(altered(genuine, change));
      await expect.poll(() => notifications(bob.page), { timeout: 15_000, message: what }).toEqual(generic);
    }

    // Logging out forgets the stored logs with the rest of the account's data here.
    await logout(bob.page);
    expect(await storedKeyLogs(bob.page, bobId)).toEqual([]);
  });

  it("shows a muted group's pushed message only when it mentions the account", async () => {
    const [alice, bob] = await Promise.all([signedUpPerson(veil, 'pma'), signedUpPerson(veil, 'pmb')]);
    const groupName = uniqueName('Pushed');
    await createGroupOverApi(alice.page, groupName, [await currentUserId(bob.page)]);
    // A one-to-one chat too, made before Bob subscribes (it pushes nothing), whose pushes are not muted.
    await sayHi(alice.page, bob.name);
    const { userId: bobId, pushFor, shownFor } = await pushesTo(bob.page);

    await openChat(alice.page, groupName);
    await pushFor(alice.page, 'Welcome');
    await openChat(bob.page, groupName);
    await messageWithText(bob.page, 'Welcome').waitFor();
    await expect.poll(() => storedKeyLogs(bob.page, bobId)).toContain(await currentUserId(alice.page));
    await bob.page.getByRole('button', { name: 'Mute' }).click();
    await bob.page.getByRole('button', { name: 'Unmute' }).waitFor();

    await openChat(alice.page, bob.name);
    const marker = await pushFor(alice.page, 'not muted');
    await openChat(alice.page, groupName);
    const plain = await pushFor(alice.page, 'muted and plain');
    const mentionText = `Hey @${bob.name} look`;
    const mention = await pushFor(alice.page, mentionText, async () => {
      const composer = alice.page.getByRole('textbox', { name: 'Message' });
      await composer.pressSequentially(`Hey @${bob.name.slice(0, 4)}`);
      await alice.page.getByRole('option', { name: bob.name }).waitFor();
      await composer.press('Enter');
      await composer.pressSequentially('look');
      await composer.press('Enter');
    });

    // The mention shows through the mute; the plain message handed over after it would replace
    // it (a chat's notifications share a tag) if it showed, and the one-to-one chat's, handed
    // over last, shows beside it.
    await shownFor(mention);
    await expect
      .poll(() => notifications(bob.page), { timeout: 15_000 })
      .toEqual([{ title: alice.name, body: mentionText }]);
    await shownFor(plain);
    await shownFor(marker);
    const byBody = (shown: { body: string }[]) => shown.map((n) => n.body).sort();
    await expect
      .poll(async () => byBody(await notifications(bob.page)), { timeout: 15_000 })
      .toEqual([mentionText, 'not muted'].sort());
  });
});
