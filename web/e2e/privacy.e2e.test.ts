import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  currentUserId,
  messageWithText,
  openChat,
  sameUserElsewhere,
  sayHi,
  sendMessage,
  signedUpPerson,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';

/**
 * The profile's privacy switches between real browsers: the server enforces each (read receipts
 * both ways, typing, online state) and the other side's screen shows only what it is allowed to.
 */
describe('privacy switches (browser)', { timeout: 180_000 }, () => {
  const veilWeb = useVeilWeb();

  /** Changes one switch on the profile page, as a person would, and waits until it is saved. */
  const setPrivacy = async (
    page: Page,
    change: { readReceipts?: boolean; typing?: boolean; onlineVisibleTo?: 'contacts' | 'nobody' },
  ) => {
    await page.goto('/profile');
    // The form shows what the server stored: a switch turns once the change is saved.
    const toggle = async (name: string | RegExp, checked: boolean) => {
      const box = page.getByRole('checkbox', { name });
      if ((await box.isChecked()) !== checked) await box.click();
      await expect.poll(() => box.isChecked()).toBe(checked);
    };
    if (change.readReceipts !== undefined) await toggle(/^Send read receipts/, change.readReceipts);
    if (change.typing !== undefined) await toggle('Show when I am typing', change.typing);
    if (change.onlineVisibleTo)
      await page.getByLabel('Who sees when I am online').selectOption(change.onlineVisibleTo);
    await page.getByText('Privacy settings saved').waitFor();
  };
  /** The green dot on the chat named `title` in the chat list. */
  const dotOf = (page: Page, title: string) =>
    page.getByTestId('chat-item').filter({ hasText: title }).getByTestId('online-dot');
  const ticksOf = (page: Page, text: string) =>
    messageWithText(page, text).getByTestId('ticks').getAttribute('aria-label');
  const badgeOf = async (page: Page, title: string) => {
    const badge = page.getByTestId('chat-item').filter({ hasText: title }).getByTestId('unread-badge');
    return (await badge.count()) ? ((await badge.textContent()) ?? '') : '';
  };
  /** Whether the server has stored `reader`'s seen report of the newest message from `senderId` (as `reader` reads it). */
  const hasSeenNewestFrom = (reader: Page, chatTitle: string, senderId: string) =>
    reader.evaluate(
      async ({ senderId, chatTitle }) => {
        const headers = { Authorization: `Bearer ${localStorage.getItem('accesstoken')}` };
        const me = (JSON.parse(localStorage.getItem('data') ?? '{}') as { _id: string })._id;
        type Chat = { _id: string; participants: { _id: string; username: string }[] };
        const chats = (await (await fetch('/api/v1/chat/getallchats', { headers })).json()).data as Chat[];
        const chat = chats.find((c) => c.participants.some((p) => p.username === chatTitle))!;
        const page = await (await fetch(`/api/v1/chat/getallmessages/${chat._id}`, { headers })).json();
        type Message = { sender: { _id: string }; seenBy: Record<string, true> };
        const newest = (page.data.messages as Message[]).findLast((m) => m.sender._id === senderId);
        return newest?.seenBy[me] === true;
      },
      { senderId, chatTitle },
    );

  it('read receipts are reciprocal: whoever sends none is seen by no one and sees no one, until they turn them on', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'pal');
    const bob = await signedUpPerson(veil, 'pbo');
    const bobId = await currentUserId(bob.page);
    await sayHi(alice.page, bob.name);
    // Bob's other browser shows his unread count: it drops once his report is stored.
    const bobElsewhere = await sameUserElsewhere(veil, bob);
    await expect.poll(() => badgeOf(bobElsewhere, alice.name), { timeout: 15_000 }).toBe('1');

    await setPrivacy(bob.page, { readReceipts: false });
    await sendMessage(alice.page, 'Read while private');
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, 'Read while private').waitFor();
    await expect.poll(() => badgeOf(bobElsewhere, alice.name), { timeout: 15_000 }).toBe('');
    // Bob has read both, but Alice is told nothing, live or after a reload.
    expect(await ticksOf(alice.page, 'Read while private')).toBe('Sent');
    await alice.page.reload();
    await messageWithText(alice.page, 'Read while private').waitFor();
    expect(await ticksOf(alice.page, `Hi ${bob.name}`)).toBe('Sent');
    expect(await ticksOf(alice.page, 'Read while private')).toBe('Sent');

    // Nor does Bob see that Alice has read his.
    await sendMessage(bob.page, 'Bob writes');
    await messageWithText(alice.page, 'Bob writes').waitFor();
    await expect.poll(() => hasSeenNewestFrom(alice.page, bob.name, bobId), { timeout: 15_000 }).toBe(true);
    await bob.page.reload();
    await messageWithText(bob.page, 'Bob writes').waitFor();
    expect(await ticksOf(bob.page, 'Bob writes')).toBe('Sent');

    // Turned back on, the receipts show both ways.
    await setPrivacy(bob.page, { readReceipts: true });
    await alice.page.reload();
    await expect.poll(() => ticksOf(alice.page, 'Read while private'), { timeout: 15_000 }).toBe('Seen');
    await openChat(bob.page, alice.name);
    await expect.poll(() => ticksOf(bob.page, 'Bob writes'), { timeout: 15_000 }).toBe('Seen');
  });

  it('hides typing from the other side while the switch is off', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'pal');
    const bob = await signedUpPerson(veil, 'pbo');
    await sayHi(alice.page, bob.name);
    await setPrivacy(bob.page, { typing: false });
    await openChat(bob.page, alice.name);
    // Every text Alice's typing indicator ever shows from now on.
    await alice.page.evaluate(() => {
      const shown: string[] = [];
      Object.assign(window, { typingShown: shown });
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="typing-indicator"]')?.textContent;
        if (text) shown.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const typingShown = () =>
      alice.page.evaluate(() => (window as unknown as { typingShown: string[] }).typingShown);

    const composer = bob.page.getByRole('textbox', { name: 'Message' });
    await composer.pressSequentially('typed in private', { delay: 40 });
    await composer.press('Enter');
    // Typing would have reached Alice before the message typed after it.
    await messageWithText(alice.page, 'typed in private').waitFor();
    expect(await typingShown()).toEqual([]);

    await setPrivacy(bob.page, { typing: true });
    await openChat(bob.page, alice.name);
    await bob.page.getByRole('textbox', { name: 'Message' }).pressSequentially('typed openly', { delay: 40 });
    await alice.page.getByTestId('typing-indicator').getByText(`${bob.name} typing...`).waitFor();
  });

  it('shows the online state to nobody: every contact loses the dot, and gets it back when shared again', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'pal');
    const bob = await signedUpPerson(veil, 'pbo');
    const carol = await signedUpPerson(veil, 'pca');
    await sayHi(alice.page, bob.name);
    await sayHi(carol.page, bob.name);
    await sayHi(carol.page, alice.name);
    await dotOf(alice.page, bob.name).waitFor();
    await dotOf(carol.page, bob.name).waitFor();

    await setPrivacy(bob.page, { onlineVisibleTo: 'nobody' });
    await dotOf(alice.page, bob.name).waitFor({ state: 'detached' });
    await dotOf(carol.page, bob.name).waitFor({ state: 'detached' });
    // Bob, online and writing, still shows as offline; Alice's dot still shows to Carol.
    await openChat(bob.page, carol.name);
    await sendMessage(bob.page, 'Here, but hidden');
    await openChat(carol.page, bob.name);
    await messageWithText(carol.page, 'Here, but hidden').waitFor();
    expect(await dotOf(carol.page, bob.name).count()).toBe(0);
    expect(await carol.page.locator('.chat-header').getByTestId('online-dot').count()).toBe(0);
    await dotOf(carol.page, alice.name).waitFor();
    await carol.page.reload();
    await messageWithText(carol.page, 'Here, but hidden').waitFor();
    await dotOf(carol.page, alice.name).waitFor();
    expect(await dotOf(carol.page, bob.name).count()).toBe(0);

    await setPrivacy(bob.page, { onlineVisibleTo: 'contacts' });
    await dotOf(alice.page, bob.name).waitFor();
    await dotOf(carol.page, bob.name).waitFor();
  });

  it("shows a contact's last-seen time in the chat header once their last tab closes, and nothing once they hide their online state", async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'pal');
    const bob = await signedUpPerson(veil, 'pbo');
    const carol = await signedUpPerson(veil, 'pca');
    await sayHi(alice.page, carol.name);
    await sayHi(alice.page, bob.name);
    const status = alice.page.getByTestId('chat-status');
    await status.getByText('online', { exact: true }).waitFor();

    const closedFrom = Date.now();
    await bob.page.close();
    await status.getByText(/^last seen today at /).waitFor();
    const closedBy = Date.now();
    // The moment his tab closed, as Alice's browser writes a time.
    const clock = (ms: number) =>
      alice.page.evaluate(
        (at) => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(at),
        ms,
      );
    const shown = (await status.textContent())?.replace('last seen today at ', '');
    expect([await clock(closedFrom), await clock(closedBy)]).toContain(shown);

    // Bob comes back in another tab and hides his online state: Alice sees neither.
    const bobAgain = await bob.page.context().newPage();
    await bobAgain.goto('/all-chats');
    await status.getByText('online', { exact: true }).waitFor();
    await setPrivacy(bobAgain, { onlineVisibleTo: 'nobody' });
    await status.waitFor({ state: 'detached' });
    await bobAgain.close();
    // A fresh page: its lists come with Carol's dot, the times before it.
    await alice.page.reload();
    await alice.page.getByTestId('chat-title').filter({ hasText: bob.name }).waitFor();
    await dotOf(alice.page, carol.name).waitFor();
    expect(await status.count()).toBe(0);
  });
});
