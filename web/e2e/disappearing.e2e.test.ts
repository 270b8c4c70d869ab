import { describe, expect, it } from 'vitest';
import { messageWithText, openChat, sayHi, sendMessage, signedUpPerson } from './flows.ts';
import { phone, useVeilWeb } from './harness.ts';

/**
 * Disappearing messages between real browsers: a member sets the chat's timer from the header
 * (a system line on both sides), and a message sent after it disappears on time, also for a
 * person whose browser was closed meanwhile (from the history, the chat list and the search index). The server's clock is the test's, so five minutes
 * pass without waiting.
 */
describe('disappearing messages (browser)', { timeout: 150_000 }, () => {
  let shift = 0;
  const veilWeb = useVeilWeb({
    clock: { now: () => new Date(Date.now() + shift) },
    env: { MESSAGE_EXPIRY_CHECK_SECONDS: '1' },
  });

  it('a timer set in the header expires a message while one browser is closed: gone from both, from the chat list and from search', async () => {
    const alice = await signedUpPerson(veilWeb(), 'dal');
    const bob = await signedUpPerson(veilWeb(), 'dbo');
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();

    // Any member sets it, from the keyboard too; both sides see it in the header and as a system line.
    const timer = bob.page.getByRole('combobox', { name: 'Disappearing messages' });
    expect(await timer.inputValue()).toBe('0');
    await timer.focus();
    await timer.selectOption({ label: '5 minutes' });
    await bob.page
      .getByTestId('system-line')
      .filter({ hasText: 'You set disappearing messages to 5 minutes' })
      .waitFor();
    await alice.page
      .getByTestId('system-line')
      .filter({ hasText: `${bob.name} set disappearing messages to 5 minutes` })
      .waitFor();
    await expect
      .poll(() => alice.page.getByRole('combobox', { name: 'Disappearing messages' }).inputValue())
      .toBe('300');

    await sendMessage(alice.page, 'This note self-destructs');
    await messageWithText(bob.page, 'This note self-destructs').waitFor();
    // The header shows what the control is; a message that will disappear carries a timer mark.
    await bob.page
      .getByTestId('disappearing-timer')
      .locator('..')
      .getByText('Disappearing messages')
      .waitFor();
    await messageWithText(bob.page, 'This note self-destructs')
      .getByRole('img', { name: 'Disappearing message' })
      .waitFor();
    // Sent before the timer: it stays, and is not marked.
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    expect(await messageWithText(bob.page, `Hi ${bob.name}`).getByTestId('disappearing-mark').count()).toBe(
      0,
    );

    // Bob closes his browser (his tab; his storage stays, as a closed browser's does).
    const bobsBrowser = bob.page.context();
    await bob.page.close();

    shift = 5 * 60_000 + 5_000;
    await messageWithText(alice.page, 'This note self-destructs').waitFor({
      state: 'detached',
      timeout: 20_000,
    });

    const back = await bobsBrowser.newPage();
    await back.goto('/all-chats');
    const row = back.getByTestId('chat-item').filter({ hasText: alice.name });
    await row.waitFor();
    expect(await row.textContent()).not.toContain('self-destructs');
    await openChat(back, alice.name);
    await messageWithText(back, `Hi ${bob.name}`).waitFor();
    expect(await messageWithText(back, 'This note self-destructs').count()).toBe(0);
    // Nor does this browser's search index keep it.
    await back.getByRole('searchbox', { name: 'Search messages' }).fill('self-destructs');
    await back.getByText('No messages found', { exact: true }).waitFor();
    await back
      .getByTestId('system-line')
      .filter({ hasText: 'You set disappearing messages to 5 minutes' })
      .waitFor();
    shift = 0;
  });

  it('fits the timer into a phone-sized header', async () => {
    const carol = await signedUpPerson(veilWeb(), 'dca');
    const dave = await signedUpPerson(veilWeb(), 'dda');
    await sayHi(dave.page, carol.name);
    await dave.page.setViewportSize(phone);
    const timer = dave.page.getByRole('combobox', { name: 'Disappearing messages' });
    await timer.waitFor();
    const box = (await timer.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
    expect(await dave.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      phone.width,
    );
  });
});
