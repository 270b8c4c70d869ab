import { afterEach, describe, expect, it } from 'vitest';
import { createApi, type Api } from './support/api-client.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { connectSocket } from './support/sockets.ts';
import { createUser, directMessage, sendDirect } from './support/users.ts';

/** Clients at different addresses, as a proxy in front of the gateway reports them. */
const from = (api: Api, ip: string) => ({
  login: (username: string, password: string) =>
    api.call('POST', '/api/v1/user/login', {
      raw: { body: JSON.stringify({ username, password }), contentType: 'application/json' },
      headers: { 'x-forwarded-for': ip },
    }),
});

describe('throttling', () => {
  let veil: TestVeil;
  afterEach(() => veil?.destroy());

  it('slows a guesser at one address without locking the account owner out elsewhere', async () => {
    veil = await startTestVeil({ env: { TRUST_PROXY_HOPS: '1' } });
    const api = createApi(veil.url);
    const owner = await createUser(api, 'owner');
    const guesser = from(api, '203.0.113.7');
    for (let n = 0; n < 5; n++) expect((await guesser.login(owner.username, `guess-${n}`)).status).toBe(401);
    const slowed = await guesser.login(owner.username, owner.password);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many login attempts\. Try again in \d+ (second|minute)\(s\)\.$/),
    });
    // The owner, from their own address, signs in; a success there leaves the guesser slowed.
    expect((await from(api, '198.51.100.20').login(owner.username, owner.password)).status).toBe(200);
    expect((await guesser.login(owner.username, owner.password)).status).toBe(429);
  });

  it('counts wrong current passwords at a password change as failed logins: a stolen session cannot guess', async () => {
    veil = await startTestVeil({ env: { TRUST_PROXY_HOPS: '1' } });
    const api = createApi(veil.url);
    const owner = await createUser(api, 'pwguess');
    const stolen = (currentPassword: string) =>
      api.call('PUT', '/api/v1/user/updatePassword', {
        token: owner.accessToken,
        raw: {
          body: JSON.stringify({ currentPassword, password: 'taken-over-secret' }),
          contentType: 'application/json',
        },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
    for (let n = 0; n < 5; n++) {
      const wrong = await stolen(`guess-${n}`);
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ success: false, code: 'WRONG_PASSWORD' });
    }
    // Even the right password now waits, and so does a login from that address: one set of counters.
    const slowed = await stolen(owner.password);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect((await from(api, '203.0.113.9').login(owner.username, owner.password)).status).toBe(429);
    // The password is unchanged; the owner, elsewhere, signs in with it.
    expect((await from(api, '198.51.100.21').login(owner.username, owner.password)).status).toBe(200);
    expect((await from(api, '198.51.100.21').login(owner.username, 'taken-over-secret')).status).toBe(401);
  });

  it('caps every write route per user and per address, with Retry-After, one user not slowing another', async () => {
    veil = await startTestVeil({ env: { WRITES_PER_USER_PER_MINUTE: '4', WRITES_PER_IP_PER_MINUTE: '7' } });
    const api = createApi(veil.url);
    // register + login per user: 6 of the address's 7 writes.
    const [alice, bob, carol] = [
      await createUser(api, 'wa'),
      await createUser(api, 'wb'),
      await createUser(api, 'wc'),
    ];
    const refreshed = await api.post('/api/v1/user/refresh', { refreshtoken: alice.refreshToken });
    expect(refreshed.status).not.toBe(429);
    const overAddress = await api.post('/api/v1/user/refresh', { refreshtoken: bob.refreshToken });
    expect(overAddress.status).toBe(429);

    const send = (to: typeof bob) => sendDirect(api, alice, to, 'hi');
    for (let n = 0; n < 4; n++) expect((await send(bob)).status).toBe(201);
    const refused = await send(carol);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    // Reads are not writes, and bob's budget is his own.
    expect((await api.get('/api/v1/chat/getallchats', alice.accessToken)).status).toBe(200);
    expect(
      (
        await api.post(
          '/api/v1/chat/creategroupchat',
          { groupName: 'ours', participants: [alice._id, carol._id] },
          bob.accessToken,
        )
      ).status,
    ).toBe(201);
  });

  it('makes changes to a message over the socket spend the same per-user budget as HTTP writes', async () => {
    veil = await startTestVeil({ env: { WRITES_PER_USER_PER_MINUTE: '4' } });
    const api = createApi(veil.url);
    const [alice, bob] = [await createUser(api, 'sa'), await createUser(api, 'sb')];
    const sent = await sendDirect(api, alice, bob, 'first'); // write 1, over HTTP
    expect(sent.status).toBe(201);
    const messageId = sent.body.data.message._id as string;
    const socket = await connectSocket(veil.url, alice);
    try {
      const edit = async (text: string) => {
        const { encryptedMessage, iv, encryptedAESKeyForRecipient, encryptedAESKeyForSender } =
          await directMessage(alice, bob, text);
        const encryptedKeys = {
          [bob._id]: encryptedAESKeyForRecipient,
          [alice._id]: encryptedAESKeyForSender,
        };
        return socket
          .timeout(10_000)
          .emitWithAck('edit message', { messageId, encryptedMessage, iv, encryptedKeys });
      };
      for (let n = 2; n <= 4; n++) expect(await edit(`edit ${n}`)).toMatchObject({ ok: true });
      expect(await edit('one too many')).toEqual({
        ok: false,
        error: {
          code: 'RATE_LIMITED',
          message: expect.stringMatching(/^Too many requests\. Try again in \d+ second\(s\)\.$/),
        },
      });
      // The budget is one: HTTP writes are refused too, and bob's own budget is untouched.
      expect((await sendDirect(api, alice, bob, 'over http')).status).toBe(429);
      expect((await sendDirect(api, bob, alice, 'from bob')).status).toBe(201);
    } finally {
      socket.close();
    }
  });
});
