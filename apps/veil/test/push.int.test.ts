import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushPayloadSchema } from '@veil/contracts';
import { decryptMessage, keyMapSummaryOf } from '@veil/crypto';
import { startPushService, type TestPushService, type TestPushSubscription } from '@veil/test-env';
import { createApi } from './support/api-client.ts';
import { expectJsonError } from './support/json-errors.ts';
import { startTestVeil, useTestVeil } from './support/test-veil.ts';
import { createUser, directMessage, type TestUser } from './support/users.ts';

/**
 * Web Push over real HTTP: browsers' subscriptions through the API, and the pushes the server
 * sends through the `web-push` library to a push service on loopback, opened with the
 * subscription's keys as the browser would open them. What the push service receives is
 * encrypted to the browser; what the browser gets out is still the sender's ciphertext.
 */
const running = useTestVeil({ env: { PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' } });
let pushService: TestPushService;
beforeAll(async () => {
  pushService = await startPushService();
});
afterAll(() => pushService?.close());

const subscribe = (user: TestUser, subscription: TestPushSubscription) =>
  running.api.post(
    '/api/v1/push/subscriptions',
    { endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys },
    user.accessToken,
  );

const pushesTo = (name: string) => pushService.received.filter((push) => push.name === name);

const subscriptionDoc = async (endpoint: string) => {
  const docs = await (await running.veil.ports.readStore.collection('push_subscriptions')).find({});
  return docs.find((doc) => (doc as unknown as { endpoint: string }).endpoint === endpoint) ?? null;
};

describe('web push', () => {
  it('pushes a message to the recipient browser as the sender ciphertext, readable only with its keys', async () => {
    const alice = await createUser(running.api, 'pushsnd');
    const bob = await createUser(running.api, 'pushrcv');
    const bobBrowser = pushService.subscription(`bob-${bob._id}`);
    expect((await subscribe(bob, bobBrowser)).status).toBe(201);

    const key = await running.api.get('/api/v1/push/key', bob.accessToken);
    expect(key.status).toBe(200);
    const publicKey = key.body.data.publicKey as string;
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);

    const text = 'the meeting moved to nine';
    const payload = await directMessage(alice, bob, text);
    const sent = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      payload,
      alice.accessToken,
    );
    expect(sent.status).toBe(201);

    await expect.poll(() => pushesTo(`bob-${bob._id}`).length, { timeout: 15_000 }).toBe(1);
    const [push] = pushesTo(`bob-${bob._id}`);
    // Signed with the server's VAPID key, encrypted for the browser (RFC 8291).
    expect(push!.headers.authorization).toContain(`k=${publicKey}`);
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    expect(push!.body.toString('latin1')).not.toContain(payload.encryptedMessage.slice(0, 24));

    const opened = pushPayloadSchema.parse(JSON.parse(bobBrowser.decrypt(push!.body)));
    expect(opened).toEqual({
      kind: 'message',
      userId: bob._id,
      chatId: sent.body.data.chat._id,
      messageId: sent.body.data.message._id,
      sender: { _id: alice._id, username: alice.username },
      sentAt: sent.body.data.message.createdAt,
      message: {
        content: payload.encryptedMessage,
        iv: payload.iv,
        encryptedKey: payload.encryptedAESKeyForRecipient,
        // What Bob's browser checks the signature with: the whole key map's summary, not its keys.
        isGroupChat: false,
        keyMap: await keyMapSummaryOf({
          [alice._id]: payload.encryptedAESKeyForSender,
          [bob._id]: payload.encryptedAESKeyForRecipient,
        }),
        replyTo: null,
      },
    });
    // Only Bob's wrapped key, and no plaintext: the account key in Bob's browser opens it.
    expect(JSON.stringify(opened)).not.toContain(text);
    expect(JSON.stringify(opened)).not.toContain(payload.encryptedAESKeyForSender);
    const envelope = {
      content: opened.message!.content,
      iv: opened.message!.iv,
      encryptedKeys: { [bob._id]: opened.message!.encryptedKey },
    };
    expect(await decryptMessage(envelope, bob._id, bob.keys.privateKey)).toBe(text);
    // Another subscription's keys do not open it.
    expect(() => pushService.subscription('someone-else').decrypt(push!.body)).toThrow();

    // The sender's own browsers are not pushed their own message; a reply is pushed to them.
    const aliceBrowser = pushService.subscription(`alice-${alice._id}`);
    expect((await subscribe(alice, aliceBrowser)).status).toBe(201);
    const reply = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${alice._id}`,
      await directMessage(bob, alice, 'nine is fine'),
      bob.accessToken,
    );
    expect(reply.status).toBe(201);
    await expect.poll(() => pushesTo(`alice-${alice._id}`).length, { timeout: 15_000 }).toBe(1);
    expect(pushesTo(`bob-${bob._id}`)).toHaveLength(1);
  });

  it('sends only the ids when the message would not fit in a push', async () => {
    const alice = await createUser(running.api, 'pushbig');
    const bob = await createUser(running.api, 'pushbr');
    const bobBrowser = pushService.subscription(`big-${bob._id}`);
    expect((await subscribe(bob, bobBrowser)).status).toBe(201);
    const sent = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'long '.repeat(1000)),
      alice.accessToken,
    );
    expect(sent.status).toBe(201);
    await expect.poll(() => pushesTo(`big-${bob._id}`).length, { timeout: 15_000 }).toBe(1);
    const opened = pushPayloadSchema.parse(
      JSON.parse(bobBrowser.decrypt(pushesTo(`big-${bob._id}`)[0]!.body)),
    );
    expect(opened.messageId).toBe(sent.body.data.message._id);
    expect(opened.sender).toEqual({ _id: alice._id, username: alice.username });
    expect(opened.message).toBeUndefined();
  });

  it('forgets a subscription the push service says is gone, and the subscriptions of a session that ended', async () => {
    const alice = await createUser(running.api, 'pushgone');
    const bob = await createUser(running.api, 'pushgb');
    const gone = pushService.subscription(`gone-${bob._id}`);
    expect((await subscribe(bob, gone)).status).toBe(201);
    expect(await subscriptionDoc(gone.endpoint)).not.toBeNull();
    pushService.answer(`gone-${bob._id}`, 410);
    const sent = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'are you there?'),
      alice.accessToken,
    );
    expect(sent.status).toBe(201);
    await expect.poll(() => pushesTo(`gone-${bob._id}`).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => subscriptionDoc(gone.endpoint), { timeout: 15_000 }).toBeNull();

    // Logging out ends the session, and with it the subscriptions it made.
    const kept = pushService.subscription(`logout-${bob._id}`);
    expect((await subscribe(bob, kept)).status).toBe(201);
    expect(await subscriptionDoc(kept.endpoint)).not.toBeNull();
    const logout = await running.api.post('/api/v1/user/logout', { refreshtoken: bob.refreshToken });
    expect(logout.status).toBe(200);
    await expect.poll(() => subscriptionDoc(kept.endpoint), { timeout: 15_000 }).toBeNull();
  });

  it('refuses malformed subscriptions with a clear 400, and keeps each user to their own', async () => {
    const alice = await createUser(running.api, 'pushbad');
    const bob = await createUser(running.api, 'pushown');
    const good = pushService.subscription(`own-${bob._id}`);
    const post = (body: unknown) => running.api.post('/api/v1/push/subscriptions', body, alice.accessToken);

    expectJsonError(await post({}), 400, 'VALIDATION_FAILED');
    expectJsonError(
      await post({ endpoint: 'not a url', keys: good.keys }),
      400,
      'VALIDATION_FAILED',
      /endpoint/,
    );
    expectJsonError(
      await post({ endpoint: 'ftp://push.example.com/x', keys: good.keys }),
      400,
      'VALIDATION_FAILED',
      /endpoint/,
    );
    expectJsonError(await post({ endpoint: good.endpoint }), 400, 'VALIDATION_FAILED', /keys/);
    expectJsonError(
      await post({ endpoint: good.endpoint, keys: { ...good.keys, p256dh: 'AAAA' } }),
      400,
      'VALIDATION_FAILED',
      /p256dh/,
    );
    expectJsonError(
      await post({ endpoint: good.endpoint, keys: { ...good.keys, auth: 'not base64!' } }),
      400,
      'VALIDATION_FAILED',
      /auth/,
    );
    expectJsonError(
      await running.api.post('/api/v1/push/subscriptions', { endpoint: good.endpoint, keys: good.keys }),
      401,
    );

    // Bob's subscription cannot be removed by Alice: it is "not found" for her, and stays.
    expect((await subscribe(bob, good)).status).toBe(201);
    const removeAs = (user: TestUser) =>
      running.api.call('DELETE', '/api/v1/push/subscriptions', {
        json: { endpoint: good.endpoint },
        token: user.accessToken,
      });
    expectJsonError(await removeAs(alice), 404, 'NOT_FOUND');
    expect(await subscriptionDoc(good.endpoint)).not.toBeNull();
    expectJsonError(
      await running.api.call('DELETE', '/api/v1/push/subscriptions', { json: {}, token: bob.accessToken }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await removeAs(bob)).status).toBe(200);
    expect(await subscriptionDoc(good.endpoint)).toBeNull();
    expectJsonError(await removeAs(bob), 404, 'NOT_FOUND');
  });

  it('refuses plain-http and local push endpoints unless configured for development', async () => {
    const production = await startTestVeil();
    try {
      const api = createApi(production.url);
      const user = await createUser(api, 'pushprod');
      const { keys } = pushService.subscription('production');
      for (const endpoint of [
        'http://push.example.com/send/1',
        'https://127.0.0.1/send/1',
        'https://localhost:8443/send/1',
        'https://[::1]/send/1',
        'https://10.1.2.3/send/1',
        'https://192.168.0.7/send/1',
      ]) {
        expectJsonError(
          await api.post('/api/v1/push/subscriptions', { endpoint, keys }, user.accessToken),
          400,
          'VALIDATION_FAILED',
          /endpoint/,
        );
      }
      const accepted = await api.post(
        '/api/v1/push/subscriptions',
        { endpoint: 'https://push.example.com/send/1', keys },
        user.accessToken,
      );
      expect(accepted.status).toBe(201);
    } finally {
      await production.destroy();
    }
  });
});
