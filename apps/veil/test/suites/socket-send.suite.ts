import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MessageView } from '@veil/contracts';
import { buildGroupPayload, decryptMessage } from '@veil/crypto';
import type { Socket } from 'socket.io-client';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { socketPool, type ClientSocket } from '../support/sockets.ts';
import { createGroup, createUser, type TestUser } from '../support/users.ts';

/**
 * `send message` over a real socket into the whole app: the message service persists it and the
 * fan-out delivers it, exactly as for sends over HTTP. Run on the embedded app and on
 * NATS + Redis.
 */
export const socketSendSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let mallory: TestUser;
  let chatId: string;
  const sockets = socketPool(() => veil.url);
  const connect = sockets.connect;

  const keysFor = (...users: TestUser[]) => Object.fromEntries(users.map((u) => [u._id, u.keys.publicKey]));

  const sendOver = async (socket: ClientSocket, payload: unknown) =>
    socket.timeout(10_000).emitWithAck('send message', payload as never);

  /** Everything a socket receives from now on (a delivery can arrive before the sender's ack). */
  const inbox = (socket: ClientSocket) => {
    const received: MessageView[] = [];
    socket.on('message received', ({ message }) => received.push(message));
    return async (id: string) => {
      await expect.poll(() => received.some((m) => m._id === id)).toBe(true);
      return received.find((m) => m._id === id)!;
    };
  };

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    [alice, bob, carol, mallory] = (await Promise.all(
      ['sa', 'sb', 'sc', 'sm'].map((n) => createUser(api, n)),
    )) as [TestUser, TestUser, TestUser, TestUser];
    // The chat exists first: a first message to someone is the HTTP call, which creates it.
    chatId = await createGroup(api, alice, 'socket senders', [bob, carol]);
  });
  afterAll(async () => {
    sockets.closeAll();
    await veil.destroy();
  });

  it('persists the message, acks it with its id, position and time, and delivers it to the others', async () => {
    const [a, b, c] = [await connect(alice), await connect(bob), await connect(carol)];
    const [atBobOf, atCarolOf] = [inbox(b), inbox(c)];
    const payload = await buildGroupPayload('over the socket', keysFor(alice, bob, carol));
    const reply = await sendOver(a, { chatId, ...payload });
    expect(reply.ok).toBe(true);
    if (!reply.ok) return;
    const receipt = reply.data;
    // Only what the sender cannot know: the rest of the message is what it sent.
    expect(Object.keys(receipt).sort()).toEqual(['_id', 'createdAt', 'seq']);
    const [atBob, atCarol] = [await atBobOf(receipt._id), await atCarolOf(receipt._id)];
    expect(await decryptMessage(atBob, bob._id, bob.keys.privateKey)).toBe('over the socket');
    expect(await decryptMessage(atCarol, carol._id, carol.keys.privateKey)).toBe('over the socket');
    expect(atBob).toMatchObject({ chat: chatId, sender: { _id: alice._id }, replyTo: null, seenBy: {} });
    expect({ seq: atBob.seq, createdAt: atBob.createdAt }).toEqual({
      seq: receipt.seq,
      createdAt: receipt.createdAt,
    });
    // Read-your-writes: the sender's next history read has it, as the receipt describes it.
    const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken);
    const stored = history.body.data.messages.find((m: MessageView) => m._id === receipt._id);
    expect(stored).toMatchObject({ ...receipt, sender: { _id: alice._id } });
  });

  it("tells the sender's other devices, and not the sending one, whose ack told it", async () => {
    const twoTabs = await createGroup(api, alice, 'two tabs', [bob, carol]);
    const [sending, otherDevice] = [await connect(alice), await connect(alice)];
    const told = { sending: [] as string[], otherDevice: [] as string[] };
    sending.on('message sent', ({ message }) => told.sending.push(message._id));
    otherDevice.on('message sent', ({ message }) => told.otherDevice.push(message._id));
    const payload = await buildGroupPayload('from one of two tabs', keysFor(alice, bob, carol));
    const reply = await sendOver(sending, { chatId: twoTabs, ...payload, clientMessageId: 'two-tabs-1' });
    if (!reply.ok) throw new Error(reply.error.message);
    await expect.poll(() => told.otherDevice).toEqual([reply.data._id]);
    // Sent over HTTP, the message reaches every socket of the sender's: none of them sent it.
    const overHttp = await api.post(
      `/api/v1/message/sendGroupMessage/${twoTabs}`,
      {
        ...(await buildGroupPayload('from the API', keysFor(alice, bob, carol))),
        clientMessageId: 'two-tabs-2',
      },
      alice.accessToken,
    );
    expect(overHttp.status).toBe(201);
    await expect.poll(() => told.sending).toEqual([overHttp.body.data.message._id]);
    expect(told.otherDevice).toEqual([reply.data._id, overHttp.body.data.message._id]);
  });

  it('takes the sender from the token, never from the payload', async () => {
    const a = await connect(alice);
    const payload = await buildGroupPayload('who sent this?', keysFor(alice, bob, carol));
    const reply = await sendOver(a, { chatId, ...payload, senderId: bob._id, userId: bob._id });
    if (!reply.ok) throw new Error(`send refused: ${reply.error.message}`);
    const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken);
    const stored = history.body.data.messages.find((m: MessageView) => m._id === reply.data._id);
    expect(stored.sender).toEqual({ _id: alice._id });
  });

  it('refuses a non-member, a key map that misses a member, and a malformed payload', async () => {
    const m = await connect(mallory);
    const a = await connect(alice);
    const intruding = await buildGroupPayload('intrude', keysFor(alice, bob, carol, mallory));
    expect(await sendOver(m, { chatId, ...intruding })).toMatchObject({
      ok: false,
      error: { code: 'CHAT_NOT_FOUND' },
    });
    const missingCarol = await buildGroupPayload('not for carol', keysFor(alice, bob));
    expect(await sendOver(a, { chatId, ...missingCarol })).toMatchObject({
      ok: false,
      error: { code: 'KEY_MAP_MISMATCH' },
    });
    const full = await buildGroupPayload('no iv', keysFor(alice, bob, carol));
    expect(await sendOver(a, { chatId, encryptedMessage: full.encryptedMessage })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'iv is required' },
    });
    expect(await sendOver(a, 'not an object')).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' },
    });
    const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken);
    const texts = await Promise.all(
      history.body.data.messages.map((m: MessageView) => decryptMessage(m, alice._id, alice.keys.privateKey)),
    );
    expect(texts).toEqual(['over the socket', 'who sent this?']);
  });

  it('answers a send without an ack with an error event and stores nothing', async () => {
    const a = await connect(alice);
    const payload = await buildGroupPayload('fire and forget', keysFor(alice, bob, carol));
    const error = new Promise((resolve) => a.once('error', resolve));
    (a as unknown as Socket).emit('send message', { chatId, ...payload });
    expect(await error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken);
    expect(history.body.data.messages).toHaveLength(2);
  });

  it('cuts a flood: past the burst, sends are refused RATE_LIMITED before any other work', async () => {
    const m = await connect(mallory);
    // Malformed on purpose: the budget is taken before validation, so these cost the server little.
    const replies = await Promise.all(
      Array.from({ length: 300 }, () => sendOver(m, { chatId, encryptedMessage: 'QUJD' })),
    );
    const codes = replies.map((r) => (r.ok ? 'ok' : r.error.code));
    expect(codes.filter((c) => c === 'VALIDATION_FAILED').length).toBeGreaterThanOrEqual(200);
    expect(codes.filter((c) => c === 'RATE_LIMITED').length).toBeGreaterThan(0);
    expect(codes).not.toContain('ok');
  });

  it('stores a retried send once: the same clientMessageId answers with the stored message', async () => {
    const [a, b] = [await connect(alice), await connect(bob)];
    const received: string[] = [];
    b.on('message received', ({ message }) => received.push(message._id));
    const payload = await buildGroupPayload('sent twice', keysFor(alice, bob, carol));
    const clientMessageId = `retry-${Date.now()}`;
    // A retry can arrive while the first send still waits for its fsync: send both at once.
    const [first, again] = await Promise.all([
      sendOver(a, { chatId, ...payload, clientMessageId }),
      sendOver(a, { chatId, ...payload, clientMessageId }),
    ]);
    if (!first.ok || !again.ok) throw new Error('a send was refused');
    expect(again.data).toEqual(first.data);
    const later = await sendOver(a, { chatId, ...payload, clientMessageId });
    expect(later).toEqual({ ok: true, data: first.data });
    // Another user's identical key is another message.
    const other = await sendOver(await connect(bob), { chatId, ...payload, clientMessageId });
    if (!other.ok) throw new Error('bob was refused');
    expect(other.data._id).not.toBe(first.data._id);

    const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken);
    const ids = history.body.data.messages.map((m: MessageView) => m._id);
    expect(ids.filter((id: string) => id === first.data._id)).toHaveLength(1);
    // The fan-out follows the log in order: once a later message has reached bob, a second
    // delivery of the first one would have come before it.
    const marker = await sendOver(a, {
      chatId,
      ...(await buildGroupPayload('after', keysFor(alice, bob, carol))),
    });
    if (!marker.ok) throw new Error('the later send was refused');
    await expect.poll(() => received.includes(marker.data._id)).toBe(true);
    expect(received.filter((id) => id === first.data._id)).toHaveLength(1);
  });
};
