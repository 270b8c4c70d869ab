import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callPushPayloadSchema, type CallSignalRequest } from '@veil/contracts';
import { startPushService, type TestPushService } from '@veil/test-env';
import { socketPool, type ClientSocket } from './support/sockets.ts';
import { useTestVeil } from './support/test-veil.ts';
import { createUser, sendDirect, type TestUser } from './support/users.ts';

/**
 * Ringing through Web Push in the whole app: real sockets into the realtime gateway, which asks
 * the real message service over RPC, which pushes through the `web-push` library to a push
 * service on loopback; the push is opened with the subscription's keys as the browser would.
 */
const running = useTestVeil({ env: { PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' } });
let pushService: TestPushService;
beforeAll(async () => {
  pushService = await startPushService();
});
afterAll(() => pushService?.close());
const sockets = socketPool(() => running.veil.url);
afterEach(() => sockets.closeAll());

const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/** A signal's shape: the server cannot read it, so random bytes of the right sizes do. */
const signal = (chatId: string, from: string, to: string, callId = randomBytes(16).toString('hex')) =>
  ({
    chatId,
    to,
    callId,
    signal: {
      ciphertext: b64(600),
      iv: b64(12),
      encryptedKeys: { [to]: b64(256), [from]: b64(256) },
      signature: b64(64),
    },
  }) satisfies CallSignalRequest;

const ask = async (socket: ClientSocket, request: CallSignalRequest) =>
  (await socket.timeout(10_000).emitWithAck('call signal', request)) as { ok: boolean };

/** Every `call pushed` the socket receives from now on. */
const pushedNotices = (socket: ClientSocket) => {
  const callIds: string[] = [];
  socket.on('call pushed', (notice) => callIds.push(notice.callId));
  return callIds;
};

describe('calls through Web Push', () => {
  const subscribed = async (user: TestUser) => {
    const browser = pushService.subscription(`call-${user._id}`);
    const answer = await running.api.post(
      '/api/v1/push/subscriptions',
      { endpoint: browser.endpoint, expirationTime: null, keys: browser.keys },
      user.accessToken,
    );
    expect(answer.status).toBe(201);
    const pushes = () => pushService.received.filter((push) => push.name === `call-${user._id}`);
    return { pushes, open: (index: number) => JSON.parse(browser.decrypt(pushes()[index]!.body)) as unknown };
  };
  const chatOf = async (a: TestUser, b: TestUser) => {
    const sent = await sendDirect(running.api, a, b, 'hello');
    expect(sent.status).toBe(201);
    return sent.body.data.chat._id as string;
  };

  it('pushes the signal as relayed to a callee with no socket, once per call, and tells the caller', async () => {
    const [alice, bob] = await Promise.all([createUser(running.api, 'cpa'), createUser(running.api, 'cpb')]);
    const chatId = await chatOf(alice, bob);
    const bobs = await subscribed(bob);
    const caller = await sockets.connect(alice);
    const notices = pushedNotices(caller);

    const first = signal(chatId, alice._id, bob._id);
    expect((await ask(caller, first)).ok).toBe(true);
    await expect.poll(() => notices, { timeout: 15_000 }).toEqual([first.callId]);
    await expect.poll(() => bobs.pushes().length, { timeout: 15_000 }).toBe(1);
    expect(callPushPayloadSchema.parse(bobs.open(0))).toEqual({
      kind: 'call',
      userId: bob._id,
      chatId,
      callId: first.callId,
      caller: { _id: alice._id, username: alice.username },
      signal: first.signal,
    });

    // The same call's next signal is relayed and not pushed; a new call is.
    expect((await ask(caller, signal(chatId, alice._id, bob._id, first.callId))).ok).toBe(true);
    const next = signal(chatId, alice._id, bob._id);
    expect((await ask(caller, next)).ok).toBe(true);
    await expect.poll(() => notices, { timeout: 15_000 }).toEqual([first.callId, next.callId]);
    await expect.poll(() => bobs.pushes().length, { timeout: 15_000 }).toBe(2);
    expect(callPushPayloadSchema.parse(bobs.open(1)).callId).toBe(next.callId);
  });

  it('pushes no call between two people when one blocked the other', async () => {
    const [alice, bob, dave] = await Promise.all([
      createUser(running.api, 'cpx'),
      createUser(running.api, 'cpy'),
      createUser(running.api, 'cpz'),
    ]);
    const chatId = await chatOf(alice, bob);
    const withDave = await chatOf(alice, dave);
    const [bobs, daves] = [await subscribed(bob), await subscribed(dave)];
    expect((await running.api.put(`/api/v1/user/blocks/${alice._id}`, {}, bob.accessToken)).status).toBe(200);
    const caller = await sockets.connect(alice);
    const notices = pushedNotices(caller);

    const blocked = signal(chatId, alice._id, bob._id);
    expect((await ask(caller, blocked)).ok).toBe(true);
    // A call to Dave after it is pushed: the one to Bob was decided by then.
    const barrier = signal(withDave, alice._id, dave._id);
    expect((await ask(caller, barrier)).ok).toBe(true);
    await expect.poll(() => daves.pushes().length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => notices, { timeout: 15_000 }).toContain(barrier.callId);
    expect(bobs.pushes()).toHaveLength(0);
    expect(notices).not.toContain(blocked.callId);
  });
});
