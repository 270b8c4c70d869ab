import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  login,
  messageWithText,
  notificationRecord,
  openChat,
  openChatFromUsers,
  recordNotifications,
  renameSelf,
  sameUserElsewhere,
  sayHi,
  sendMessage,
  signedUpPerson,
  turnOnNotifications,
  uniqueName,
  signUpAndLogIn,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { cuttableSocket } from './network-faults.ts';

/** The badge of the chat named `title` in the page's chat list ('' when there is none). */
const badgeOf = async (page: Page, title: string) => {
  const badge = page.getByTestId('chat-item').filter({ hasText: title }).getByTestId('unread-badge');
  return (await badge.count()) ? ((await badge.textContent()) ?? '') : '';
};

describe('conversations (browser)', { timeout: 150_000 }, () => {
  const suite = useVeilWeb();

  it('opens a chat from Users without sending anything, and sends the suggested "Hi" with one click', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'oal');
    const bob = await signedUpPerson(veil, 'obo');
    await alice.page.goto('/all-chats');
    await alice.page.getByText('No chats available').waitFor();
    await alice.page.getByRole('link', { name: 'Start a chat from Users' }).click();
    await alice.page.waitForURL('**/users');

    const sends: string[] = [];
    alice.page.on(
      'request',
      (r) => r.method() === 'POST' && r.url().includes('/api/v1/message/') && sends.push(r.url()),
    );
    alice.page.on('websocket', (ws) =>
      ws.on('framesent', (frame) => String(frame.payload).includes('send message') && sends.push('socket')),
    );
    await openChatFromUsers(alice.page, bob.name);
    await alice.page.getByTestId('chat-title').filter({ hasText: bob.name }).waitFor();
    await alice.page.getByText('No messages available').waitFor();
    const suggestion = alice.page.getByRole('button', { name: `Send “Hi ${bob.name}”` });
    await suggestion.waitFor();
    expect(sends).toEqual([]);

    // Bob sees the new, empty chat without a badge; opening it from his side finds the same chat.
    await bob.page.goto('/all-chats');
    await bob.page.getByTestId('chat-item').filter({ hasText: alice.name }).waitFor();
    expect(await badgeOf(bob.page, alice.name)).toBe('');

    await suggestion.click();
    await messageWithText(alice.page, `Hi ${bob.name}`).waitFor();
    await suggestion.waitFor({ state: 'detached' });
    expect(sends).toHaveLength(1);
    await expect.poll(() => badgeOf(bob.page, alice.name)).toBe('1');
  });

  it('counts unread messages live, across two browsers of one user and a reconnect', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'ual');
    const bobName = uniqueName('ubo');
    const bob = await veil.newPage();
    await signUpAndLogIn(bob, bobName);
    // Bob's second device, whose network can be cut.
    const bobElsewhere = await veil.newPage();
    const elsewhereSocket = await cuttableSocket(bobElsewhere);
    await login(bobElsewhere, bobName, 'correct horse 1');

    await sayHi(alice.page, bobName);
    await bob.goto('/users');
    await expect.poll(() => bob.title(), { timeout: 10_000 }).toBe('(1) Users · Veil');
    for (const text of ['first line\nsecond line', 'two', 'three']) await sendMessage(alice.page, text);
    await messageWithText(alice.page, 'three').waitFor();
    // The tab's title and icon carry the total on every page.
    await expect.poll(() => bob.title(), { timeout: 10_000 }).toBe('(4) Users · Veil');
    expect(await bob.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml/);

    await expect.poll(() => badgeOf(bobElsewhere, alice.name), { timeout: 10_000 }).toBe('4');
    expect(await bobElsewhere.title()).toBe('(4) Chats · Veil');
    // The preview is decrypted in the browser that holds Bob's key.
    await bob.getByRole('link', { name: 'All-chats' }).click();
    const item = bob.getByTestId('chat-item').filter({ hasText: alice.name });
    await expect.poll(() => item.getByTestId('chat-preview').textContent()).toBe('three');
    expect(await item.locator('time').count()).toBe(1);
    expect(await badgeOf(bob, alice.name)).toBe('4');

    // Read on one device: the other's badge clears, and the opened chat marks where the new messages began.
    await openChat(bob, alice.name);
    await bob.getByTestId('new-messages').waitFor();
    const divider = bob.locator('[data-testid="new-messages"] + [data-testid="message"]');
    expect(await divider.getByTestId('message-text').textContent()).toBe(`Hi ${bobName}`);
    // Seen reports go out every 2 s.
    await expect.poll(() => badgeOf(bobElsewhere, alice.name), { timeout: 10_000 }).toBe('');
    await expect.poll(() => bob.title(), { timeout: 10_000 }).toBe('Chats · Veil');

    // Bob's other device goes offline while two more arrive; back online, it counts them.
    await elsewhereSocket.cut();
    await bob.goto('/users');
    await sendMessage(alice.page, 'while away 1');
    await sendMessage(alice.page, 'while away 2');
    await messageWithText(alice.page, 'while away 2').waitFor();
    await expect.poll(() => bob.title(), { timeout: 10_000 }).toBe('(2) Users · Veil');
    expect(await badgeOf(bobElsewhere, alice.name)).toBe('');
    elsewhereSocket.restore();
    await expect.poll(() => badgeOf(bobElsewhere, alice.name), { timeout: 20_000 }).toBe('2');
    await expect.poll(() => bobElsewhere.title(), { timeout: 10_000 }).toBe('(2) Chats · Veil');
  });

  it("counts a message stored after the page's first count and before its socket first connected", async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'ral');
    const bob = await signedUpPerson(veil, 'rbo');
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    // Seen reports go out every 2 s.
    await expect.poll(() => bob.page.title(), { timeout: 10_000 }).toBe('Chats · Veil');

    // Bob's next page loads with its socket held down: the counts come, the socket does not.
    const socket = await cuttableSocket(bob.page);
    await socket.cut();
    const firstCount = bob.page.waitForResponse((r) => r.url().includes('/api/v1/message/unread'));
    await bob.page.goto('/users');
    await firstCount;
    expect(await bob.page.title()).toBe('Users · Veil');
    await sendMessage(alice.page, 'sent before the socket joined');
    await messageWithText(alice.page, 'sent before the socket joined').waitFor();

    // Its first connection asks again: the message counts without waiting for a reconnect.
    socket.restore();
    await expect.poll(() => bob.page.title(), { timeout: 20_000 }).toBe('(1) Users · Veil');
  });

  it('keeps a message counted live when an older count from the server lands after it', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'kal');
    const bob = await signedUpPerson(veil, 'kbo');
    await sayHi(alice.page, bob.name);
    // Bob's counts can be held on their way, as on a slow network: the server answers at once,
    // the page gets the answer when the test lets it through.
    const socket = await cuttableSocket(bob.page);
    let holding = false;
    let computed = () => {};
    const answerComputed = new Promise<void>((resolve) => (computed = resolve));
    let letThrough = () => {};
    const released = new Promise<void>((resolve) => (letThrough = resolve));
    await bob.page.route('**/api/v1/message/unread', async (route) => {
      const held = holding;
      const response = await route.fetch();
      if (held) {
        computed();
        await released;
      }
      await route.fulfill({ response });
    });
    // A page asks when it loads and again when its socket connects.
    let answers = 0;
    const loaded = new Promise<void>((resolve) =>
      bob.page.on(
        'response',
        (r) => r.url().includes('/api/v1/message/unread') && ++answers === 2 && resolve(),
      ),
    );
    await bob.page.goto('/users');
    await loaded;
    await expect.poll(() => bob.page.title()).toBe('(1) Users · Veil');

    // A reconnect asks for the counts again; the server's answer (one unread) is held.
    holding = true;
    await socket.cut();
    socket.restore();
    await answerComputed;
    await sendMessage(alice.page, 'after the count was computed');
    await expect.poll(() => bob.page.title(), { timeout: 10_000 }).toBe('(2) Users · Veil');

    // The older answer lands: the message counted live still counts, and so does the next one.
    const landed = bob.page.waitForResponse((r) => r.url().includes('/api/v1/message/unread'));
    letThrough();
    await landed;
    await sendMessage(alice.page, 'after the count landed');
    await messageWithText(alice.page, 'after the count landed').waitFor();
    await expect.poll(() => bob.page.title(), { timeout: 10_000 }).toBe('(3) Users · Veil');
  });

  it("shows a message the user sent on one device in the other device's chat list", async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'dal');
    const bobName = uniqueName('dbo');
    const bob = await veil.newPage();
    await signUpAndLogIn(bob, bobName);
    await sayHi(alice.page, bobName);
    await openChat(bob, alice.name);
    await bob.getByRole('link', { name: 'All-chats' }).click();
    const preview = bob.getByTestId('chat-item').filter({ hasText: alice.name }).getByTestId('chat-preview');
    await expect.poll(() => preview.textContent()).toBe(`Hi ${bobName}`);

    // Bob writes from another tab: its own page and socket, his keys (a browser without them
    // cannot sign, so it does not send).
    const bobElsewhere = await bob.context().newPage();
    await bobElsewhere.goto('/all-chats');
    await openChat(bobElsewhere, alice.name);
    await sendMessage(bobElsewhere, 'sent from my other device');
    await messageWithText(alice.page, 'sent from my other device').waitFor();
    await expect.poll(() => preview.textContent()).toBe('You: sent from my other device');
    expect(await badgeOf(bob, alice.name)).toBe('');
  });

  it('tries a chat that failed to load again by itself, waiting longer each time, and says so', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'lal');
    const bob = await signedUpPerson(veil, 'lbo');
    await sayHi(alice.page, bob.name);
    // The history answers "unavailable" until the page has tried again by itself once.
    let failing = true;
    await bob.page.route('**/api/v1/chat/getallmessages/**', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ success: false, message: 'Service unavailable', code: 'UNAVAILABLE' }),
          })
        : route.continue(),
    );
    await bob.page.goto('/all-chats');
    await bob.page.getByTestId('chat-item').filter({ hasText: alice.name }).click();
    await bob.page.getByText('This chat could not be loaded.').waitFor();
    await bob.page.getByText('Trying again in 1 s…').waitFor();
    // The first try failed too: the next wait is longer.
    await bob.page.getByText('Trying again in 2 s…').waitFor();
    failing = false;
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor({ timeout: 15_000 });
    expect(await bob.page.getByText('This chat could not be loaded.').count()).toBe(0);
  });

  it('writes several lines, shows links safely, names the quoted sender and offers a way back to the newest', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'cal');
    const bob = await signedUpPerson(veil, 'cbo');
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await bob.page.getByTestId('day-separator').filter({ hasText: 'Today' }).waitFor();

    // Shift+Enter starts a new line, Enter sends; the lines stay lines.
    const box = alice.page.getByRole('textbox', { name: 'Message' });
    await box.pressSequentially('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    expect(await box.inputValue()).toBe('first line\nsecond line');
    await box.press('Enter');
    const lines = messageWithText(bob.page, 'first line\nsecond line');
    await lines.waitFor();
    expect(await lines.getByTestId('message-text').evaluate((el) => (el as HTMLElement).innerText)).toBe(
      'first line\nsecond line',
    );

    // A link opens in a new tab without a handle on this one; markup in a message stays text.
    await sendMessage(alice.page, 'see example.com/docs?a=1 and <img src=x onerror="window.injected=1">');
    const link = bob.page.getByRole('link', { name: 'example.com/docs?a=1' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('http://example.com/docs?a=1');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await bob.page.getByTestId('message-text').getByText('<img src=x onerror="window.injected=1">').waitFor();
    expect(await bob.page.locator('.message img').count()).toBe(0);
    expect(await bob.page.evaluate(() => 'injected' in window)).toBe(false);

    // A reply quotes its message under the sender's name.
    const greeting = messageWithText(bob.page, `Hi ${bob.name}`);
    await greeting.hover();
    await greeting.getByRole('button', { name: 'Reply' }).click();
    await sendMessage(bob.page, 'replying to you');
    const reply = messageWithText(alice.page, 'replying to you');
    await reply.waitFor();
    expect(await reply.locator('.message__quote-author').textContent()).toBe('You');
    const quoteOnBobsSide = messageWithText(bob.page, 'replying to you').locator('.message__quote-author');
    expect(await quoteOnBobsSide.textContent()).toBe(alice.name);

    // Scrolled up, Bob gets a button back to the newest messages, counting what he has not seen.
    for (let index = 0; index < 25; index += 1) await sendMessage(alice.page, `filler ${index}`);
    await messageWithText(bob.page, 'filler 24').waitFor();
    await bob.page.getByRole('list', { name: 'Messages' }).evaluate((list) => list.scrollTo({ top: 0 }));
    await sendMessage(alice.page, 'while scrolled up');
    const toNewest = bob.page.getByRole('button', { name: /^Scroll to the newest message, \d+ unread$/ });
    await toNewest.waitFor();
    await toNewest.click();
    await expect.poll(() => messageWithText(bob.page, 'while scrolled up').isVisible()).toBe(true);
    await toNewest.waitFor({ state: 'detached' });
  });

  it("shows a contact's rename live, in the chat list and the open chat", async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'nal');
    const bob = await signedUpPerson(veil, 'nbo');
    await sayHi(alice.page, bob.name);
    await alice.page.getByTestId('chat-title').filter({ hasText: bob.name }).waitFor();

    const renamed = uniqueName('nbr');
    await renameSelf(bob.page, renamed);

    await alice.page.getByTestId('chat-title').filter({ hasText: renamed }).waitFor();
    await alice.page.getByTestId('chat-item').filter({ hasText: renamed }).waitFor();
  });

  it("shows renames made while the socket was down once it connects: a contact's in the directory, the user's own from another browser", async () => {
    const veil = suite();
    let bobsSocket!: Awaited<ReturnType<typeof cuttableSocket>>;
    const alice = await signedUpPerson(veil, 'yal');
    const bob = await signedUpPerson(veil, 'ybo', async (page) => {
      bobsSocket = await cuttableSocket(page);
    });
    await sayHi(alice.page, bob.name);
    const bobElsewhere = await sameUserElsewhere(veil, bob);
    await bob.page.goto('/users');
    const card = (name: string) => bob.page.getByRole('button', { name: `${name}: Say Hi` });
    await card(alice.name).waitFor();

    // Bob's page loses its socket, so `user updated` cannot reach it.
    await bobsSocket.cut();
    await bob.page.getByTestId('connection-state').waitFor();
    const [aliceRenamed, bobRenamed] = [uniqueName('yar'), uniqueName('ybr')];
    await renameSelf(alice.page, aliceRenamed);
    await renameSelf(bobElsewhere, bobRenamed);
    expect(await card(aliceRenamed).count()).toBe(0);
    expect(await bob.page.getByTestId('nav-username').textContent()).toBe(bob.name);

    // Its connection reads the directory and Bob's own record again: both show without a reload.
    bobsSocket.restore();
    await card(aliceRenamed).waitFor({ timeout: 20_000 });
    await bob.page.getByTestId('nav-username').getByText(bobRenamed).waitFor();
  });

  it('notifies of messages while the tab is hidden, once turned on, except in muted chats', async () => {
    const veil = suite();
    const alice = await signedUpPerson(veil, 'bal');
    const bob = await signedUpPerson(veil, 'bbo');
    // The test decides whether the tab is hidden, and records the notifications shown.
    await recordNotifications(alice.page);
    const { shown, hide } = notificationRecord(alice.page);

    await sayHi(bob.page, alice.name);
    await turnOnNotifications(alice.page);

    await alice.page.getByRole('link', { name: 'Users' }).click();
    await hide(true);
    await sendMessage(bob.page, 'ping while hidden');
    await expect.poll(shown, { timeout: 10_000 }).toEqual([{ title: bob.name, body: 'ping while hidden' }]);

    await hide(false);
    await sendMessage(bob.page, 'ping while visible');
    await openChat(alice.page, bob.name);
    await messageWithText(alice.page, 'ping while visible').waitFor();
    await alice.page.getByRole('button', { name: 'Mute' }).click();
    await alice.page.getByRole('button', { name: 'Unmute' }).waitFor();
    await alice.page.getByRole('link', { name: 'Users' }).click();
    await hide(true);
    await sendMessage(bob.page, 'ping while muted');
    await expect.poll(() => alice.page.title(), { timeout: 10_000 }).toBe('(1) Users · Veil');
    // (Opening the chat loaded the page again, which started a new record.)
    expect(await shown()).toEqual([]);
  });
});
