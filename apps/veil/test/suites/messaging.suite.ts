import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartVeilOptions } from '../../src/index.ts';
import { messageRpc } from '@veil/contracts';
import { rpcClient } from '@veil/kernel';
import {
  buildGroupPayload,
  buildIndividualPayload,
  decryptMessage,
  importPublicKeySpkiBase64,
} from '@veil/crypto';
import { createApi, type Api } from '../support/api-client.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createUser, type TestUser } from '../support/users.ts';

/** What a suite may do to the event log beneath the app, where the log allows it. */
export interface LogFaults {
  /** Makes the log forget which event ids it stored (JetStream's duplicate window running out). */
  forgetStoredEventIds?(): Promise<void>;
}

/** The messaging API (docs/api.md) over real HTTP; run against the embedded app and the NATS + Redis one. */
export const messagingSuite = (options: Partial<StartVeilOptions> = {}, faults: LogFaults = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let mallory: TestUser;

  const sendDirect = async (from: TestUser, to: TestUser, text: string, replyTo?: string) => {
    const payload = await buildIndividualPayload(
      text,
      {
        recipientId: to._id,
        recipientKey: to.keys.publicKey,
        senderId: from._id,
        senderKey: from.keys.publicKey,
      },
      replyTo,
    );
    return api.post(`/api/v1/message/sendIndividualMessage/${to._id}`, payload, from.accessToken);
  };

  const readAs = (
    user: TestUser,
    message: { content: string; iv: string; encryptedKeys: Record<string, string> },
  ) => decryptMessage(message, user._id, user.keys.privateKey);

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    const users = await Promise.all(['alice', 'bob', 'carol', 'mallory'].map((n) => createUser(api, n)));
    [alice, bob, carol, mallory] = users as [TestUser, TestUser, TestUser, TestUser];
  });
  afterAll(() => veil.destroy());

  describe('one-to-one messages', () => {
    let chatId: string;

    it('creates the chat on first use and returns data.message and data.chat._id', async () => {
      const res = await sendDirect(alice, bob, 'Hi bob');
      expect(res.status).toBe(201);
      chatId = res.body.data.chat._id;
      expect(res.body.data.message).toMatchObject({
        chat: chatId,
        sender: { _id: alice._id },
        seenBy: {},
        replyTo: null,
      });
      expect(Object.keys(res.body.data.message.encryptedKeys).sort()).toEqual([alice._id, bob._id].sort());
      expect(await readAs(bob, res.body.data.message)).toBe('Hi bob');
      expect(await readAs(alice, res.body.data.message)).toBe('Hi bob');
    });

    it('reuses the chat and lists it with the other person first', async () => {
      const res = await sendDirect(bob, alice, 'Hello alice');
      expect(res.body.data.chat._id).toBe(chatId);
      const chats = await api.get('/api/v1/chat/getallchats', bob.accessToken);
      const chat = chats.body.data.find((c: { _id: string }) => c._id === chatId);
      expect(chat).toMatchObject({ isGroupChat: false, chatName: alice.username });
      expect(chat.participants[0]).toEqual({
        _id: alice._id,
        username: alice.username,
        profilePicture: null,
      });
      const byId = await api.get(`/api/v1/chat/getchatbyid/${chatId}`, alice.accessToken);
      expect(byId.body.data.participants[0]._id).toBe(bob._id);
    });

    it('returns history oldest first, with replies in the same shape', async () => {
      const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken);
      const [first] = history.body.data.messages;
      const reply = await sendDirect(alice, bob, 'replying', first._id);
      expect(reply.status).toBe(201);
      expect(reply.body.data.message.replyTo._id).toBe(first._id);
      expect(await readAs(bob, reply.body.data.message.replyTo)).toBe('Hi bob');
      const after = await api.get(`/api/v1/chat/getallmessages/${chatId}`, bob.accessToken);
      const texts = await Promise.all(after.body.data.messages.map((m: never) => readAs(bob, m)));
      expect(texts).toEqual(['Hi bob', 'Hello alice', 'replying']);
    });

    it('pages backwards with before= and catches up with after=', async () => {
      const { body } = await api.get(`/api/v1/chat/getallmessages/${chatId}?limit=2`, alice.accessToken);
      expect(body.data.messages).toHaveLength(2);
      expect(body.data.hasMore).toBe(true);
      const older = await api.get(
        `/api/v1/chat/getallmessages/${chatId}?limit=2&before=${body.data.messages[0].seq}`,
        alice.accessToken,
      );
      expect(older.body.data.messages).toHaveLength(1);
      expect(older.body.data.hasMore).toBe(false);
      const since = await api.get(
        `/api/v1/chat/getallmessages/${chatId}?after=${older.body.data.messages[0].seq}`,
        alice.accessToken,
      );
      expect(since.body.data.messages.map((m: { _id: string }) => m._id)).toEqual(
        body.data.messages.map((m: { _id: string }) => m._id),
      );
    });

    it('marks a message seen even when the report arrives before the read model has it', async () => {
      // As a socket delivery can: the event is in the log, the message service may not have applied it yet.
      const messageId = `01RACE${Date.now().toString(36).toUpperCase()}`;
      await veil.ports.bus.append('message', {
        type: 'MessageSent',
        streamId: `msg-${messageId}`,
        eventId: `evt${messageId}`,
        occurredAt: new Date().toISOString(),
        schemaVersion: 1,
        data: {
          messageId,
          chatId,
          senderId: alice._id,
          content: 'AAAA',
          iv: 'AAAAAAAAAAAAAAAA',
          encryptedKeys: { [alice._id]: 'AAAA', [bob._id]: 'AAAA' },
          replyTo: null,
        },
      });
      const { marked } = await rpcClient(veil.ports.rpc, messageRpc).markSeen({
        userId: bob._id,
        reports: [{ chatId, messageId }],
      });
      expect(marked).toEqual([{ chatId, messageId }]);
    });

    it('keeps non-members out of the chat and its messages, answering as for a chat that does not exist', async () => {
      const missing = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
      for (const route of ['getchatbyid', 'getallmessages']) {
        const notYours = await api.get(`/api/v1/chat/${route}/${chatId}`, mallory.accessToken);
        const none = await api.get(`/api/v1/chat/${route}/${missing}`, mallory.accessToken);
        expect(notYours.status).toBe(404);
        expect(notYours.body).toEqual(none.body);
        expect(notYours.body).toEqual({ success: false, message: 'Chat not found', code: 'CHAT_NOT_FOUND' });
      }
      const payload = await buildGroupPayload('intrude', {
        [alice._id]: alice.keys.publicKey,
        [bob._id]: bob.keys.publicKey,
      });
      expect(
        (await api.post(`/api/v1/message/sendGroupMessage/${chatId}`, payload, mallory.accessToken)).status,
      ).toBe(404);
      expect((await api.get('/api/v1/chat/getallchats', mallory.accessToken)).body.data).toEqual([]);
    });

    it('creates exactly one chat when both send a first message at the same moment', async () => {
      const a = await createUser(api, 'x');
      const b = await createUser(api, 'y');
      const results = await Promise.all([
        sendDirect(a, b, 'first!'),
        sendDirect(b, a, 'no, me first!'),
        sendDirect(a, b, 'again'),
      ]);
      expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
      expect(new Set(results.map((r) => r.body.data.chat._id)).size).toBe(1);
      expect((await api.get('/api/v1/chat/getallchats', a.accessToken)).body.data).toHaveLength(1);
    });

    it('stores a retried send once: the same clientMessageId answers with the stored message', async () => {
      const [a, b] = [await createUser(api, 'ra'), await createUser(api, 'rb')];
      const payload = await buildIndividualPayload('once', {
        recipientId: b._id,
        recipientKey: b.keys.publicKey,
        senderId: a._id,
        senderKey: a.keys.publicKey,
      });
      const body = { ...payload, clientMessageId: `http-${Date.now()}` };
      const url = `/api/v1/message/sendIndividualMessage/${b._id}`;
      // The first message creates the chat: a retry can arrive while it is still being created.
      const [first, again] = await Promise.all([
        api.post(url, body, a.accessToken),
        api.post(url, body, a.accessToken),
      ]);
      const later = await api.post(url, body, a.accessToken);
      // A retry long after the first send: JetStream no longer knows the event id by then.
      await faults.forgetStoredEventIds?.();
      const muchLater = await api.post(url, body, a.accessToken);
      expect([first.status, again.status, later.status, muchLater.status]).toEqual([201, 201, 201, 201]);
      expect(again.body.data.message).toEqual(first.body.data.message);
      expect(later.body.data.message).toEqual(first.body.data.message);
      expect(muchLater.body.data.message).toEqual(first.body.data.message);
      const chat = first.body.data.chat._id;
      const history = await api.get(`/api/v1/chat/getallmessages/${chat}`, b.accessToken);
      expect(history.body.data.messages.map((m: { _id: string }) => m._id)).toEqual([
        first.body.data.message._id,
      ]);

      // The key is the sender's: the other side's identical key is another message.
      const reply = await api.post(
        `/api/v1/message/sendGroupMessage/${chat}`,
        {
          ...(await buildGroupPayload('mine', { [a._id]: a.keys.publicKey, [b._id]: b.keys.publicKey })),
          clientMessageId: body.clientMessageId,
        },
        b.accessToken,
      );
      expect(reply.status).toBe(201);
      expect(reply.body.data.message._id).not.toBe(first.body.data.message._id);
      const bad = await api.post(url, { ...payload, clientMessageId: 'short' }, a.accessToken);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        success: false,
        message: 'clientMessageId must be 8-64 letters, digits, - or _',
      });
    });
  });

  describe('chat list', () => {
    it('orders chats by last activity and shows renames', async () => {
      const [a, b, c] = [
        await createUser(api, 'ord'),
        await createUser(api, 'ord'),
        await createUser(api, 'ord'),
      ];
      const first = await sendDirect(a, b, 'one');
      const second = await sendDirect(a, c, 'two');
      const ids = async () =>
        (await api.get('/api/v1/chat/getallchats', a.accessToken)).body.data.map(
          (x: { _id: string }) => x._id,
        );
      expect(await ids()).toEqual([second.body.data.chat._id, first.body.data.chat._id]);
      await sendDirect(b, a, 'three');
      expect(await ids()).toEqual([first.body.data.chat._id, second.body.data.chat._id]);

      const renamed = `${b.username.slice(0, 20)}new`;
      const form = new FormData();
      form.append('username', renamed);
      expect(
        (await api.call('PUT', '/api/v1/user/updateProfile', { token: b.accessToken, form })).status,
      ).toBe(200);
      await expect
        .poll(
          async () =>
            (await api.get(`/api/v1/chat/getchatbyid/${first.body.data.chat._id}`, a.accessToken)).body.data
              .chatName,
        )
        .toBe(renamed);
    });
  });

  describe('group messages', () => {
    let groupId: string;

    it('creates a group with the creator as a member and rejects bad requests', async () => {
      const bad = await api.post(
        '/api/v1/chat/creategroupchat',
        { groupName: 'x', participants: ['01UNKNOWNUSERID'] },
        alice.accessToken,
      );
      expect(bad.status).toBe(404);
      expect(
        (
          await api.post(
            '/api/v1/chat/creategroupchat',
            { groupName: ' ', participants: [bob._id] },
            alice.accessToken,
          )
        ).status,
      ).toBe(400);
      expect(
        (
          await api.post(
            '/api/v1/chat/creategroupchat',
            { groupName: 'solo', participants: [alice._id] },
            alice.accessToken,
          )
        ).status,
      ).toBe(400);
      const res = await api.post(
        '/api/v1/chat/creategroupchat',
        { groupName: 'Trio', participants: [bob._id, carol._id] },
        alice.accessToken,
      );
      expect(res.status).toBe(201);
      groupId = res.body.data._id;
      expect(res.body.data).toMatchObject({ isGroupChat: true, chatName: 'Trio' });
      expect(res.body.data.participants.map((p: { _id: string }) => p._id).sort()).toEqual(
        [alice._id, bob._id, carol._id].sort(),
      );
    });

    it('delivers a message every member can decrypt', async () => {
      const members = {
        [alice._id]: alice.keys.publicKey,
        [bob._id]: bob.keys.publicKey,
        [carol._id]: carol.keys.publicKey,
      };
      const res = await api.post(
        `/api/v1/message/sendGroupMessage/${groupId}`,
        await buildGroupPayload('hello trio', members),
        carol.accessToken,
      );
      expect(res.status).toBe(201);
      for (const user of [alice, bob, carol])
        expect(await readAs(user, res.body.data.message)).toBe('hello trio');
    });

    it('refuses a key map that misses a member or names a stranger', async () => {
      const missing = await buildGroupPayload('x', {
        [alice._id]: alice.keys.publicKey,
        [bob._id]: bob.keys.publicKey,
      });
      const res = await api.post(`/api/v1/message/sendGroupMessage/${groupId}`, missing, alice.accessToken);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('KEY_MAP_MISMATCH');
      const extra = await buildGroupPayload('x', {
        [alice._id]: alice.keys.publicKey,
        [bob._id]: bob.keys.publicKey,
        [carol._id]: carol.keys.publicKey,
        [mallory._id]: mallory.keys.publicKey,
      });
      expect(
        (await api.post(`/api/v1/message/sendGroupMessage/${groupId}`, extra, alice.accessToken)).status,
      ).toBe(400);
    });

    it('refuses malformed base64, a bad iv and oversize ciphertext', async () => {
      const key = await importPublicKeySpkiBase64(alice.publicKey);
      const good = await buildGroupPayload('x', {
        [alice._id]: key,
        [bob._id]: bob.keys.publicKey,
        [carol._id]: carol.keys.publicKey,
      });
      const send = (body: object) =>
        api.post(`/api/v1/message/sendGroupMessage/${groupId}`, body, alice.accessToken);
      expect((await send({ ...good, encryptedMessage: 'not base64!!' })).status).toBe(400);
      expect((await send({ ...good, iv: 'AAAA' })).status).toBe(400);
      expect((await send({ ...good, encryptedMessage: 'A'.repeat(70_000) })).status).toBe(400);
      expect((await send({ ...good, encryptedKeys: { [alice._id]: '%%%' } })).status).toBe(400);
    });
  });
};
