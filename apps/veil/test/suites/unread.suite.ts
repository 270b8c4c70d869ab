import { afterAll, beforeAll, expect, it } from 'vitest';
import { decryptMessage, keyMapSummaryOf } from '@veil/crypto';
import { messageRpc, type ChatUnread, type MessageView } from '@veil/contracts';
import { rpcClient } from '@veil/kernel';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createUser, sendDirect, type TestUser } from '../support/users.ts';

/** Unread counts and opening a chat without a message, over real HTTP and sockets' commands. */
export const unreadSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let mallory: TestUser;

  const unreadOf = async (user: TestUser) => {
    const res = await api.get('/api/v1/message/unread', user.accessToken);
    expect(res.status).toBe(200);
    return res.body.data as ChatUnread[];
  };
  const markSeen = (user: TestUser, chatId: string, messageId: string) =>
    rpcClient(veil.ports.rpc, messageRpc).markSeen({ userId: user._id, reports: [{ chatId, messageId }] });

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    [alice, bob, mallory] = (await Promise.all(
      ['alice', 'bob', 'mallory'].map((n) => createUser(api, n)),
    )) as [TestUser, TestUser, TestUser];
  });
  afterAll(() => veil.destroy());

  it('opens a one-to-one chat without a message, once, and refuses a chat with oneself', async () => {
    const first = await api.post(`/api/v1/chat/direct/${bob._id}`, {}, alice.accessToken);
    expect(first.status).toBe(201);
    expect(first.body.data.participants[0]._id).toBe(bob._id);
    const again = await api.post(`/api/v1/chat/direct/${alice._id}`, {}, bob.accessToken);
    expect(again.status).toBe(200);
    expect(again.body.data._id).toBe(first.body.data._id);
    const history = await api.get(`/api/v1/chat/getallmessages/${first.body.data._id}`, bob.accessToken);
    expect(history.body.data.messages).toEqual([]);
    expect(await unreadOf(bob)).toEqual([]);
    const self = await api.post(`/api/v1/chat/direct/${alice._id}`, {}, alice.accessToken);
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    const unknown = await api.post('/api/v1/chat/direct/01ARZ3NDEKTSV4RRFFQ69G5FAV', {}, alice.accessToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    const malformed = await api.post('/api/v1/chat/direct/not%20an%20id', {}, alice.accessToken);
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);
  });

  it("counts others' messages after the newest seen one, with the newest message to preview", async () => {
    const sent: any[] = [];
    for (const text of ['one', 'two', 'three'])
      sent.push((await sendDirect(api, alice, bob, text)).body.data);
    const chatId = sent[0].chat._id;
    const [entry] = (await unreadOf(bob)).filter((chat) => chat.chatId === chatId);
    expect(entry).toMatchObject({ chatId, unread: 3 });
    expect(Object.keys(entry!.lastMessage!.encryptedKeys)).toEqual([bob._id]);
    expect(await decryptMessage(entry!.lastMessage!, bob._id, bob.keys.privateKey)).toBe('three');
    expect((await unreadOf(alice)).find((chat) => chat.chatId === chatId)?.unread).toBe(0);

    // Beside Bob's key, what the signature covers of the whole key map: its summary.
    const history = (await api.get(`/api/v1/chat/getallmessages/${chatId}`, bob.accessToken)).body.data
      .messages as MessageView[];
    const newest = history.find((message) => message._id === sent[2].message._id)!;
    expect(Object.keys(newest.encryptedKeys)).toHaveLength(2);
    expect(entry!.lastMessage!.keyMap).toEqual(await keyMapSummaryOf(newest.encryptedKeys));
    expect(entry!.lastMessage!.replyTo).toBeNull();

    await markSeen(bob, chatId, sent[1].message._id);
    await expect.poll(async () => (await unreadOf(bob)).find((c) => c.chatId === chatId)?.unread).toBe(1);
    await sendDirect(api, bob, alice, 'reply', { replyTo: sent[0].message._id });
    expect((await unreadOf(bob)).find((chat) => chat.chatId === chatId)?.unread).toBe(0);
    const forAlice = (await unreadOf(alice)).find((chat) => chat.chatId === chatId);
    expect(forAlice?.unread).toBe(1);
    // A reply names the message it replies to (its signature covers that id), with Alice's key only.
    const reply = forAlice!.lastMessage!;
    expect(reply.replyTo?._id).toBe(sent[0].message._id);
    expect(Object.keys(reply.replyTo!.encryptedKeys)).toEqual([alice._id]);
    expect(reply.replyTo!.keyMap).toBeUndefined();
    expect(reply.keyMap?.members).toEqual([alice._id, bob._id].sort());
  });

  it('keeps the counts across a restart', async () => {
    const before = await unreadOf(alice);
    veil = await veil.restart();
    api = createApi(veil.url);
    expect(await unreadOf(alice)).toEqual(before);
  });

  it("answers only for the caller's chats: another user's counts cannot be asked for", async () => {
    expect(await unreadOf(mallory)).toEqual([]);
    const withId = await api.get(`/api/v1/message/unread?userId=${bob._id}`, mallory.accessToken);
    expect(withId.body.data).toEqual([]);
    const anonymous = await api.get('/api/v1/message/unread');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
  });
};
