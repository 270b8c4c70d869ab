import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  createGroupOverApi,
  currentUserId,
  messageWithText,
  openChat,
  notificationRecord,
  openMessageMenu,
  recordNotifications,
  renameSelf,
  sendMessage,
  signedUpPerson,
  turnOnNotifications,
  uniqueName,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { axeViolations, useTheme } from './axe.ts';

/**
 * A member's client that lies about its mentions: when the test says so, the length of the first
 * mention in the plaintext is rewritten to 9s just before AES-GCM seals it. The message is then
 * sealed and signed by its sender's own keys, as a modified client would send it; only the range
 * inside it is out of bounds.
 */
const forgeMentionRanges = async (page: Page) => {
  await page.addInitScript(() => {
    const seal = SubtleCrypto.prototype.encrypt;
    SubtleCrypto.prototype.encrypt = function (
      this: SubtleCrypto,
      algorithm: AlgorithmIdentifier,
      key: CryptoKey,
      data: BufferSource,
    ) {
      const forging = (window as unknown as { forgeMentions?: boolean }).forgeMentions;
      const name = typeof algorithm === 'string' ? algorithm : algorithm.name;
      if (forging && name === 'AES-GCM' && data instanceof Uint8Array) {
        const text = String.fromCharCode(...Array.from(data));
        const forged = text.replace(
          /("mentions":\[\{"userId":"[^"]*","start":\d+,"length":)(\d+)/,
          (_all, head: string, length: string) => head + '9'.repeat(length.length),
        );
        if (forged !== text) data = Uint8Array.from(forged, (c) => c.charCodeAt(0));
      }
      return seal.call(this, algorithm, key, data);
    };
  });
};

/** axe finds nothing in the chat list, the messages and the composer as they are now, in either theme. */
const expectAccessible = async (page: Page) => {
  for (const theme of ['dark', 'light'] as const) {
    await useTheme(page, theme);
    expect(await axeViolations(page, ['.chat-list', '.message-list', '.composer'])).toEqual([]);
  }
};

/** Mentions in a group of three browsers: picking, sealing, showing, notifying, the badge, edits, forgeries. */
describe('mentions (browser)', { timeout: 240_000 }, () => {
  const veilWeb = useVeilWeb();

  it('mentions a member picked after "@": highlighted, notified through a mute, badged until read', async () => {
    const framesSent: string[] = [];
    const alice = await signedUpPerson(veilWeb(), 'mna', async (page) => {
      await forgeMentionRanges(page);
      page.on('websocket', (socket) =>
        socket.on('framesent', ({ payload }) => framesSent.push(String(payload))),
      );
    });
    const bob = await signedUpPerson(veilWeb(), 'mnb', recordNotifications);
    const carol = await signedUpPerson(veilWeb(), 'mnc');
    const groupName = uniqueName('Mentions');
    await createGroupOverApi(alice.page, groupName, [
      await currentUserId(bob.page),
      await currentUserId(carol.page),
    ]);
    const { shown, hide } = notificationRecord(bob.page);

    // Bob turns notifications on, mutes the group, and leaves it for the list with his tab hidden.
    await turnOnNotifications(bob.page);
    await openChat(bob.page, groupName);
    await bob.page.getByRole('button', { name: 'Mute' }).click();
    await bob.page.getByRole('button', { name: 'Unmute' }).waitFor();
    await bob.page.goto('/all-chats');
    const bobsRow = bob.page.getByTestId('chat-item').filter({ hasText: groupName });
    await bobsRow.waitFor();
    await hide(true);

    // A plain message in the muted group: counted, not notified.
    await openChat(alice.page, groupName);
    await sendMessage(alice.page, 'Plain hello');
    await bobsRow.getByTestId('unread-badge').filter({ hasText: '1' }).waitFor();

    // Alice types "@": the picker offers the other members, never herself, and is worked by keyboard.
    const composer = alice.page.getByRole('textbox', { name: 'Message' });
    await composer.pressSequentially('Look @');
    const picker = alice.page.getByRole('listbox', { name: 'Members to mention' });
    await picker.waitFor();
    const options = picker.getByRole('option');
    // Each option's name (its avatar's letter is hidden from assistive technology).
    const optionNames = () => options.locator('bdi').allTextContents();
    expect((await optionNames()).sort()).toEqual([bob.name, carol.name].sort());
    const activeOption = async () => {
      const id = await composer.getAttribute('aria-activedescendant');
      return id ? alice.page.locator(`[id="${id}"]`).textContent() : null;
    };
    await expectAccessible(alice.page);
    const first = await activeOption();
    expect(await options.filter({ hasText: first! }).getAttribute('aria-selected')).toBe('true');
    await composer.press('ArrowDown');
    await expect.poll(activeOption).not.toBe(first);
    await composer.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await composer.getAttribute('aria-activedescendant')).toBeNull();
    expect(await composer.inputValue()).toBe('Look @');
    // Typed again, "@" and a part of Bob's name leave only him; Enter picks him.
    await composer.press('Backspace');
    await composer.pressSequentially(`@${bob.name.slice(0, 4).toUpperCase()}`);
    await expect.poll(optionNames).toEqual([bob.name]);
    await composer.press('Enter');
    await picker.waitFor({ state: 'detached' });
    expect(await composer.inputValue()).toBe(`Look @${bob.name} `);
    await composer.pressSequentially('see this');
    // Kept as the chat's draft, the mention with it, while Alice looks elsewhere.
    await alice.page.getByRole('link', { name: 'Users' }).click();
    await alice.page.getByRole('link', { name: /^All-chats/ }).click();
    await openChat(alice.page, groupName);
    // The draft comes back into the box once it is read, a moment after the chat opens.
    await expect.poll(() => composer.inputValue()).toBe(`Look @${bob.name} see this`);
    await composer.press('Enter');
    const mentionText = `Look @${bob.name} see this`;
    await messageWithText(alice.page, mentionText).waitFor();

    // The mention goes through the mute; the plain message before it did not.
    await expect
      .poll(shown, { timeout: 15_000 })
      .toEqual([{ title: `${alice.name} in ${groupName}`, body: mentionText }]);
    // Nothing Alice's browser sent over its socket names a mention outside the ciphertext.
    expect(framesSent.some((frame) => frame.includes('send message'))).toBe(true);
    expect(framesSent.filter((frame) => frame.includes('mention'))).toEqual([]);

    // Bob's list shows "@" on the group until he opens it; Carol, not mentioned, sees none.
    await hide(false);
    await bobsRow.getByTestId('mention-badge').filter({ hasText: '@' }).waitFor();
    await bob.page
      .getByRole('button', { name: /You were mentioned/ })
      .filter({ hasText: groupName })
      .waitFor();
    await expectAccessible(bob.page);
    await carol.page.goto('/all-chats');
    const carolsRow = carol.page.getByTestId('chat-item').filter({ hasText: groupName });
    await carolsRow.getByTestId('unread-badge').filter({ hasText: '2' }).waitFor();
    expect(await carolsRow.getByTestId('mention-badge').count()).toBe(0);

    await openChat(bob.page, groupName);
    /** Bob's mention in a message, shown as `testId` says ("mention" of someone else, or "mention-of-me"). */
    const bobMentioned = (message: Locator, testId: 'mention' | 'mention-of-me') =>
      message.getByTestId(testId).filter({ hasText: `@${bob.name}` });
    await bobMentioned(messageWithText(bob.page, mentionText), 'mention-of-me').waitFor();
    await bobsRow.getByTestId('mention-badge').waitFor({ state: 'detached' });
    await openChat(carol.page, groupName);
    const atCarol = messageWithText(carol.page, mentionText);
    await bobMentioned(atCarol, 'mention').waitFor();
    expect(await atCarol.getByTestId('mention-of-me').count()).toBe(0);
    await expectAccessible(bob.page);
    await expectAccessible(carol.page);
    // A mention of me stands out more than a mention of someone else.
    const look = (page: Page, testId: string) =>
      page
        .getByTestId(testId)
        .first()
        .evaluate((span) => getComputedStyle(span).backgroundColor);
    expect(await look(bob.page, 'mention-of-me')).not.toBe(await look(carol.page, 'mention'));

    // An edit keeps the mention where the text around it changed.
    const menu = await openMessageMenu(messageWithText(alice.page, mentionText));
    await menu.getByRole('menuitem', { name: 'Edit' }).click();
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    expect(await editor.inputValue()).toBe(mentionText);
    await editor.fill(`Look @${bob.name} see that`);
    await editor.press('Enter');
    const editedAtBob = messageWithText(bob.page, `Look @${bob.name} see that`).first();
    await editedAtBob.getByText('edited', { exact: true }).waitFor();
    await bobMentioned(editedAtBob, 'mention-of-me').waitFor();

    // A reply quotes it, and a forward carries its text without the mention; neither breaks.
    const editedText = `Look @${bob.name} see that`;
    const editedAtCarol = messageWithText(carol.page, editedText);
    await editedAtCarol.getByText('edited', { exact: true }).waitFor();
    await editedAtCarol.getByRole('button', { name: /^Reply to / }).click();
    await sendMessage(carol.page, 'Noted');
    await messageWithText(bob.page, 'Noted')
      .getByTestId('message-quote')
      .filter({ hasText: editedText })
      .waitFor();
    await (await openMessageMenu(editedAtCarol)).getByRole('menuitem', { name: 'Forward' }).click();
    await carol.page
      .getByRole('dialog', { name: 'Forward message' })
      .getByRole('button', { name: `Forward to ${groupName}` })
      .click();
    const forwardedAtBob = messageWithText(bob.page, editedText).filter({
      has: bob.page.getByTestId('forwarded-label'),
    });
    await forwardedAtBob.waitFor();
    expect(await forwardedAtBob.getByTestId('mention-of-me').count()).toBe(0);

    // A member's client that forges the range of its mention of Carol out of the text: the
    // message reads as plain text everywhere, and nothing breaks.
    await alice.page.evaluate(() => ((window as unknown as { forgeMentions: boolean }).forgeMentions = true));
    await composer.pressSequentially(`Forged @${carol.name.slice(0, 4)}`);
    await expect.poll(optionNames).toEqual([carol.name]);
    await composer.press('Tab');
    await composer.pressSequentially('done');
    await composer.press('Enter');
    const forgedText = `Forged @${carol.name} done`;
    for (const page of [bob.page, carol.page]) {
      const forged = messageWithText(page, forgedText);
      await forged.waitFor();
      expect(await forged.getByTestId('message-text').getAttribute('data-read-state')).toBeNull();
      expect(await forged.getByTestId('mention').count()).toBe(0);
      expect(await forged.getByTestId('mention-of-me').count()).toBe(0);
    }
    await alice.page.evaluate(
      () => ((window as unknown as { forgeMentions: boolean }).forgeMentions = false),
    );
    await sendMessage(alice.page, 'Still here');
    await messageWithText(carol.page, 'Still here').waitFor();

    // Bob renames himself: Carol's open chat shows his mention under the new name, though the
    // sealed text still says the old one.
    const renamed = uniqueName('mnr');
    await renameSelf(bob.page, renamed);
    await messageWithText(carol.page, `Look @${renamed} see that`)
      .first()
      .getByTestId('mention')
      .filter({ hasText: `@${renamed}` })
      .waitFor();
  });
});
