import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  declineRestore,
  login,
  messageWithText,
  noKeyHereText,
  openChat,
  sayHi,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import { startVeilWeb, type VeilWeb } from './harness.ts';

/** One-to-one and group chats between real browsers, every message end-to-end encrypted. */
describe('chats (browser)', { timeout: 150_000 }, () => {
  let veil: VeilWeb;
  beforeAll(async () => {
    veil = await startVeilWeb();
  }, 240_000);
  afterEach(({ task }) => veil.finishTest(task));
  afterAll(() => veil?.stop());

  const person = (prefix: string) => signedUpPerson(veil, prefix);

  /** The ciphertext the server holds never contains the plaintext. */
  const storedContents = (page: Page, chatId: string) =>
    page.evaluate(async (id) => {
      const response = await fetch(`/api/v1/chat/getallmessages/${id}`, {
        headers: { Authorization: `Bearer ${localStorage.getItem('accesstoken')}` },
      });
      const body = (await response.json()) as { data: { messages: { content: string }[] } };
      return body.data.messages.map((m) => atob(m.content)).join('\n');
    }, chatId);

  it('starts a chat from the Users page, exchanges messages both ways and replies', async () => {
    const alice = await person('alice');
    const bob = await person('bob');

    await sayHi(alice.page, bob.name);
    const greeting = `Hi ${bob.name}`;
    await messageWithText(alice.page, greeting).waitFor();
    const chatId = new URL(alice.page.url()).searchParams.get('chat')!;

    // Bob was on /all-chats already: the new chat appears live and the greeting decrypts.
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, greeting).waitFor();

    // In an open chat, with the socket up, messages go over the socket: no HTTP send from now on.
    const httpSends: string[] = [];
    for (const page of [alice.page, bob.page])
      page.on('request', (request) => {
        if (request.url().includes('/api/v1/message/send')) httpSends.push(request.url());
      });

    await sendMessage(bob.page, 'Hello Alice, nice to meet you');
    await messageWithText(alice.page, 'Hello Alice, nice to meet you').waitFor();
    await sendMessage(alice.page, 'Likewise, Bob!');
    await messageWithText(bob.page, 'Likewise, Bob!').waitFor();

    // Empty or blank text sends nothing.
    await sendMessage(alice.page, '   ');
    await expect.poll(() => bob.page.getByTestId('message').count()).toBe(3);

    // Reply: the bar shows the first 30 characters, X clears it, sending clears it.
    const long = 'This sentence is clearly longer than thirty characters';
    await sendMessage(alice.page, long);
    const received = messageWithText(bob.page, long);
    await received.hover();
    await received.getByRole('button', { name: 'Reply' }).click();
    await bob.page.getByTestId('reply-bar').getByText('Replying to:').waitFor();
    expect(await bob.page.locator('.reply-bar__text').textContent()).toBe(long.slice(0, 30));
    await bob.page.getByRole('button', { name: 'Cancel reply' }).click();
    expect(await bob.page.getByTestId('reply-bar').count()).toBe(0);
    await received.hover();
    await received.getByRole('button', { name: 'Reply' }).click();
    await sendMessage(bob.page, 'Answering that');
    await bob.page.getByTestId('reply-bar').waitFor({ state: 'detached' });
    const answer = messageWithText(alice.page, 'Answering that');
    await answer.getByTestId('message-quote').getByText(long.slice(0, 30)).waitFor();
    // The sender's own copy, built from what it sent and the ack's receipt, quotes it too.
    const ownCopy = messageWithText(bob.page, 'Answering that');
    await ownCopy.getByTestId('message-quote').getByText(long.slice(0, 30)).waitFor();

    expect(httpSends).toEqual([]);

    const stored = await storedContents(alice.page, chatId);
    expect(stored).not.toContain('Likewise');
    expect(stored).not.toContain('Answering');

    // Bob on a browser without his private key, not restoring it: told so, and nothing decrypts.
    const bobElsewhere = await veil.newPage();
    await login(bobElsewhere, bob.name, 'correct horse 1');
    await declineRestore(bobElsewhere);
    await openChat(bobElsewhere, alice.name);
    await bobElsewhere.getByText('Private key not found in IndexedDB').waitFor();
    const texts = bobElsewhere.getByTestId('message-text');
    await expect.poll(() => texts.count()).toBe(5);
    expect(new Set(await texts.allTextContents())).toEqual(new Set([noKeyHereText]));
  });

  it('creates a group of three in which everyone reads everyone', async () => {
    const alice = await person('gal');
    const bob = await person('gbo');
    const carol = await person('gca');

    await alice.page.getByRole('button', { name: 'Create group chat' }).click();
    const next = alice.page.getByRole('button', { name: 'Next' });
    expect(await next.isDisabled()).toBe(true);
    const groupName = uniqueName('Team');
    await alice.page.getByLabel('Group Name').fill(groupName);
    expect(await next.isDisabled()).toBe(false);
    await next.click();
    await alice.page.getByRole('heading', { name: 'Select Members' }).waitFor();
    // The creator is not offered as a member.
    expect(await alice.page.getByRole('dialog').getByText(alice.name, { exact: true }).count()).toBe(0);

    const alert = new Promise<string>((resolve) =>
      alice.page.once('dialog', (d) => (resolve(d.message()), void d.accept())),
    );
    await alice.page.getByRole('button', { name: 'Create Group', exact: true }).click();
    expect(await alert).toBe('Please provide a valid group name and add at least one member.');

    await alice.page.getByRole('dialog').getByLabel(bob.name).check();
    await alice.page.getByRole('dialog').getByLabel(carol.name).check();
    await alice.page.getByRole('button', { name: 'Create Group', exact: true }).click();
    await alice.page.getByRole('dialog').waitFor({ state: 'detached' });
    await alice.page.getByTestId('chat-title').filter({ hasText: groupName }).waitFor();
    await alice.page.getByText('No messages available').waitFor();

    await sendMessage(alice.page, 'Welcome to the group');
    await openChat(bob.page, groupName);
    await openChat(carol.page, groupName);
    await messageWithText(bob.page, 'Welcome to the group').waitFor();
    await messageWithText(carol.page, 'Welcome to the group').waitFor();

    await sendMessage(carol.page, 'Thanks, happy to be here');
    await messageWithText(alice.page, 'Thanks, happy to be here').waitFor();
    await messageWithText(bob.page, 'Thanks, happy to be here').waitFor();
    // Group messages name their sender for the others.
    await messageWithText(bob.page, 'Thanks, happy to be here').getByText(carol.name).waitFor();

    await sendMessage(bob.page, 'Hello from Bob');
    await messageWithText(alice.page, 'Hello from Bob').waitFor();
    await messageWithText(carol.page, 'Hello from Bob').waitFor();
    expect(await alice.page.getByText('[Failed to decrypt]').count()).toBe(0);
  });

  it('loads older messages when scrolling to the top and keeps the view in place', async () => {
    const alice = await person('hal');
    const bob = await person('hbo');
    await sayHi(alice.page, bob.name);
    const total = 60; // more than one page (50)
    for (let n = 1; n <= total; n += 1) {
      await sendMessage(alice.page, `Numbered message ${n}`);
      await messageWithText(alice.page, `Numbered message ${n}`).waitFor();
    }

    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Numbered message ${total}`).waitFor();
    const list = bob.page.getByRole('list', { name: 'Messages' });
    // The newest page is shown, scrolled to the bottom.
    expect(await messageWithText(bob.page, 'Numbered message 1').count()).toBe(0);
    expect(await list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(5);

    const anchor = bob.page.getByTestId('message').first();
    const anchorText = await anchor.getByTestId('message-text').textContent();
    // Where the oldest loaded message shows once the reader is at the top (below the day's heading).
    const leftAt = await list.evaluate((el) => {
      el.scrollTo({ top: 0 });
      return el.querySelector('[data-testid="message"]')!.getBoundingClientRect().y;
    });
    await messageWithText(bob.page, 'Numbered message 1').waitFor();
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    // The message that was at the top is still where the reader left it, not pushed away.
    const kept = messageWithText(bob.page, anchorText ?? '');
    expect(Math.abs(((await kept.boundingBox())?.y ?? 0) - leftAt)).toBeLessThan(40);
    expect(await bob.page.getByTestId('message').count()).toBe(total + 1);
  });
});
