import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createGroupOverApi,
  currentUserId,
  messageWithText,
  openChat,
  sayHi,
  sendMessage,
  signedUpPerson,
  storedInIndexedDb,
  uniqueName,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';
import { cuttableSocket } from './network-faults.ts';

/**
 * Search that never leaves the browser, between two real browsers: a message of any chat found
 * from the chat list and opened in its chat with the history around it, an edit followed, a
 * deletion forgotten, a file found by its name, the index kept encrypted in IndexedDB across a
 * reload; and a scan showing that no query and no file name reached the server (requests, its
 * log, every file under its data directory).
 */
const word = (base: string) => `${base}${randomBytes(3).toString('hex')}`;

/** Every file under a folder, at any depth. */
const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
};

describe('message search (browser)', { timeout: 240_000 }, () => {
  const veilWeb = useVeilWeb({ ownProcess: true });
  const pickedDirs: string[] = [];
  afterAll(() => Promise.all(pickedDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search messages' });
  const results = (page: Page) => page.getByTestId('message-result');
  const search = async (page: Page, query: string) => {
    if (!page.url().includes('/all-chats')) await page.goto('/all-chats');
    await searchBox(page).fill(query);
  };
  const resultWith = (page: Page, text: string): Locator => results(page).filter({ hasText: text });

  it('finds a message that arrived while the socket was down once it connects', async () => {
    const veil = veilWeb();
    let alicesSocket!: Awaited<ReturnType<typeof cuttableSocket>>;
    const alice = await signedUpPerson(veil, 'wal', async (page) => {
      alicesSocket = await cuttableSocket(page);
    });
    const bob = await signedUpPerson(veil, 'wbo');
    await sayHi(bob.page, alice.name);
    const lantern = word('lantern');
    // Alice's index has read her histories: nothing matches yet.
    await search(alice.page, lantern);
    await alice.page.getByText('No messages found').waitFor();

    // Her socket is down when the message comes, so `message received` cannot reach it.
    await alicesSocket.cut();
    await alice.page.getByTestId('connection-state').waitFor();
    await sendMessage(bob.page, `A ${lantern} in the window`);
    await messageWithText(bob.page, `A ${lantern} in the window`).getByTestId('ticks').waitFor();
    expect(await results(alice.page).count()).toBe(0);

    // Its connection reads the histories forwards again: the message is found without a reload.
    alicesSocket.restore();
    await resultWith(alice.page, 'in the window').waitFor({ timeout: 20_000 });
  });

  it("finds a message that arrived while its group was first being read and the page's socket connected again meanwhile", async () => {
    const veil = veilWeb();
    let alicesSocket!: Awaited<ReturnType<typeof cuttableSocket>>;
    const alice = await signedUpPerson(veil, 'gal', async (page) => {
      alicesSocket = await cuttableSocket(page);
    });
    const bob = await signedUpPerson(veil, 'gbo');
    const errors: string[] = [];
    alice.page.on('pageerror', (error) => errors.push(error.message));
    await alice.page.goto('/all-chats');
    const groupName = uniqueName('Beacons');
    const groupId = await createGroupOverApi(bob.page, groupName, [await currentUserId(alice.page)]);
    // Alice's page gets the group only when the test lets the answer through.
    let letThrough = () => {};
    const released = new Promise<void>((resolve) => (letThrough = resolve));
    await alice.page.route(`**/api/v1/chat/getchatbyid/${groupId}`, async (route) => {
      await released;
      await route.continue();
    });
    const asked = alice.page.waitForRequest((request) =>
      request.url().includes(`/chat/getchatbyid/${groupId}`),
    );
    const beacon = word('beacon');
    await openChat(bob.page, groupName);
    await sendMessage(bob.page, `The ${beacon} is lit`);
    // The message arrives (it counts at once), and reading it needs the group, which is on its way.
    await asked;
    await alice.page
      .getByTestId('chat-item')
      .filter({ hasText: groupName })
      .getByTestId('unread-badge')
      .waitFor();

    // The socket connects again meanwhile, so the group is to be read again once that answer lands.
    await alicesSocket.cut();
    await alice.page.getByTestId('connection-state').waitFor();
    alicesSocket.restore();
    await alice.page.getByTestId('connection-state').waitFor({ state: 'detached', timeout: 20_000 });
    letThrough();

    // The message was read with the group as answered, and indexed.
    await search(alice.page, beacon);
    await resultWith(alice.page, 'is lit').waitFor();
    expect(errors).toEqual([]);
  });

  it('finds a message across chats, opens it in its history, follows an edit, forgets a deletion, and the server never sees a query', async () => {
    const veil = veilWeb();
    const alice = await signedUpPerson(veil, 'sal');
    const bob = await signedUpPerson(veil, 'sbo');
    const sent: string[] = [];
    for (const page of [alice.page, bob.page])
      page.on('request', (request) => {
        sent.push(request.url(), request.postDataBuffer()?.toString('utf8') ?? '');
      });

    const [picnic, lighthouse, doomed, fileWord] = [
      word('zebrapicnic'),
      word('lighthouse'),
      word('doomed'),
      word('blueprint'),
    ];
    await sayHi(alice.page, bob.name);
    await sendMessage(alice.page, `The ${picnic} starts at noon`);
    // Enough after it that it is not on the newest page: opening it loads the history around it.
    for (let i = 1; i <= 55; i += 1) await sendMessage(alice.page, `filler ${i}`);
    await sendMessage(alice.page, `This one is ${doomed}`);
    const fileName = `${fileWord}-plans.txt`;
    const dir = await mkdtemp(path.join(tmpdir(), 'veil-pick-'));
    pickedDirs.push(dir);
    await writeFile(path.join(dir, fileName), 'the plans');
    await alice.page.getByTestId('attachment-input').setInputFiles(path.join(dir, fileName));
    await sendMessage(alice.page, 'with the file');
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, 'with the file').waitFor();

    // Found from the chat list, by a prefix of a word, and opened at the message.
    await search(bob.page, picnic.slice(0, 10));
    await resultWith(bob.page, `starts at noon`).waitFor();
    expect(await resultWith(bob.page, 'starts at noon').textContent()).toContain(alice.name);
    await resultWith(bob.page, 'starts at noon').click();
    const found = messageWithText(bob.page, `The ${picnic} starts at noon`);
    await found.waitFor();
    await expect.poll(() => found.evaluate((el) => el.classList.contains('message--found'))).toBe(true);
    await expect.poll(() => found.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await found.isVisible()).toBe(true);
    // The history around it is loaded: what came just before and after it.
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    await messageWithText(bob.page, 'filler 1').waitFor();

    // A file, found by its name.
    await search(bob.page, fileWord);
    await resultWith(bob.page, fileName).waitFor();

    // An edit is followed: the new words find it, the old ones no longer do.
    const menuOf = async (message: Locator) => {
      await message.getByRole('button', { name: /^Actions for message from / }).click();
      return message.getByRole('menu');
    };
    await alice.page.goto(`/all-chats`);
    await openChat(alice.page, bob.name);
    const target = messageWithText(alice.page, `The ${picnic} starts at noon`);
    await alice.page.getByRole('searchbox', { name: 'Search messages' }).fill(picnic);
    await resultWith(alice.page, 'starts at noon').click();
    await target.waitFor();
    await (await menuOf(target)).getByRole('menuitem', { name: 'Edit' }).click();
    const editor = alice.page.getByRole('textbox', { name: 'Edit message' });
    await editor.fill(`Moved to the ${lighthouse}`);
    await editor.press('Enter');
    await search(bob.page, lighthouse);
    await resultWith(bob.page, 'Moved to the').waitFor();
    await search(bob.page, picnic);
    await bob.page.getByText('No messages found', { exact: true }).waitFor();

    // A deletion for everyone is forgotten.
    await search(bob.page, doomed);
    await resultWith(bob.page, 'This one is').waitFor();
    await alice.page.getByRole('searchbox', { name: 'Search messages' }).fill(doomed);
    await resultWith(alice.page, 'This one is').click();
    alice.page.once('dialog', (dialog) => void dialog.accept());
    await (
      await menuOf(messageWithText(alice.page, `This one is ${doomed}`))
    )
      .getByRole('menuitem', { name: 'Delete for everyone' })
      .click();
    await messageWithText(alice.page, 'This message was deleted').waitFor();
    await search(bob.page, doomed);
    await bob.page.getByText('No messages found', { exact: true }).waitFor();

    // Kept across a reload, encrypted: IndexedDB holds no word of it.
    await bob.page.reload();
    await search(bob.page, lighthouse);
    await resultWith(bob.page, 'Moved to the').waitFor();
    // The index is saved a moment after it changes.
    const readStored = () => storedInIndexedDb(bob.page, 'veil-search', 'index');
    await expect.poll(async () => (await readStored()).length).toBeGreaterThan(100);
    const stored = await readStored();
    for (const secret of [lighthouse, fileWord, 'filler']) expect(stored).not.toContain(secret);

    // Nothing of a query or a file name reached the server: requests, its log, its files.
    const secrets = [picnic, picnic.slice(0, 10), lighthouse, doomed, fileWord];
    const seen = (text: string) => secrets.filter((secret) => text.includes(secret));
    expect(sent.length).toBeGreaterThan(50);
    expect(sent.flatMap(seen)).toEqual([]);
    expect(seen(JSON.stringify(veil.logs))).toEqual([]);
    for (const file of await filesUnder(veil.dataDir))
      expect(seen((await readFile(file)).toString('latin1')), file).toEqual([]);
  });
});
