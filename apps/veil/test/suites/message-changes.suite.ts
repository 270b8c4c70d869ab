import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageView } from '@veil/contracts';
import { buildGroupPayload, decryptMessage, generateUserKeyPair, rewrapMessageKey } from '@veil/crypto';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { wholeMessageLog } from '../support/message-log.ts';
import { everyReadModel } from '../support/read-models.ts';
import { connectSocket, listenForChanges, type ClientSocket } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createUser, sendDirect, type TestUser } from '../support/users.ts';

const hour = 3_600_000;

/**
 * Editing, deleting (for everyone and for me) and reactions over real HTTP, with their live
 * events on real sockets; run on the embedded app and on NATS + Redis. The services' clock is
 * the test's, so the 24-hour limit is crossed without waiting.
 */
export const messageChangesSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let mallory: TestUser;
  let groupId: string;
  let directId: string;
  const sockets: ClientSocket[] = [];
  let shift = 0;
  const clock = { now: () => new Date(Date.now() + shift) };

  const keysOf = (...users: TestUser[]) => Object.fromEntries(users.map((u) => [u._id, u.keys.publicKey]));
  const group = () => [alice, bob, carol];
  const url = (messageId: string, rest = '') => `/api/v1/message/${messageId}${rest}`;

  const sendToGroup = async (from: TestUser, text: string): Promise<MessageView> => {
    const payload = await buildGroupPayload(text, keysOf(...group()));
    const res = await api.post(`/api/v1/message/sendGroupMessage/${groupId}`, payload, from.accessToken);
    expect(res.status).toBe(201);
    return res.body.data.message;
  };
  const editBody = async (text: string, users = group()) => buildGroupPayload(text, keysOf(...users));
  const history = async (user: TestUser, chatId = groupId): Promise<MessageView[]> =>
    (await api.get(`/api/v1/chat/getallmessages/${chatId}`, user.accessToken)).body.data.messages;
  const read = (user: TestUser, sealed: Pick<MessageView, 'content' | 'iv' | 'encryptedKeys'>) =>
    decryptMessage(sealed, user._id, user.keys.privateKey);

  /** The user's copy of a message's key, re-wrapped for a new key of theirs (as after a reset). */
  const copyForNewKey = async (user: TestUser, message: MessageView, newKeys?: CryptoKeyPair) =>
    (await rewrapMessageKey(
      { wrappedKey: message.encryptedKeys[user._id]!, content: message.content, iv: message.iv },
      [user.keys.privateKey],
      (newKeys ?? (await generateUserKeyPair())).publicKey,
    ))!;
  const rewrap = (user: TestUser, copies: unknown) =>
    api.post('/api/v1/message/rewrap', { copies }, user.accessToken);

  beforeAll(async () => {
    veil = await startTestVeil({ ...options, clock });
    api = createApi(veil.url);
    [alice, bob, carol, mallory] = (await Promise.all(
      ['ca', 'cb', 'cc', 'cm'].map((n) => createUser(api, n)),
    )) as [TestUser, TestUser, TestUser, TestUser];
    groupId = await createGroup(api, alice, 'changes', [bob, carol]);
    directId = (await sendDirect(api, alice, bob, 'hi bob')).body.data.chat._id;
    sockets.push(...(await Promise.all([alice, bob, alice].map((u) => connectSocket(veil.url, u)))));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await veil.destroy();
  });

  describe('editing', () => {
    it("replaces the text for every member, marks it edited and tells every member's devices live", async () => {
      const [, bobHere, aliceElsewhere] = sockets as [ClientSocket, ClientSocket, ClientSocket];
      const [atBob, atAliceElsewhere] = [
        listenForChanges(bobHere, 'message edited'),
        listenForChanges(aliceElsewhere, 'message edited'),
      ];
      const sent = await sendToGroup(alice, 'first words');
      const res = await api.put(url(sent._id), await editBody('better words'), alice.accessToken);
      expect(res.status).toBe(200);
      expect(res.body.data.message).toMatchObject({
        _id: sent._id,
        seq: sent.seq,
        editedAt: expect.any(String),
      });
      expect(await read(carol, res.body.data.message)).toBe('better words');

      await atBob(sent._id).toHaveLength(1);
      await atAliceElsewhere(sent._id).toHaveLength(1);
      const stored = (await history(bob)).find((m) => m._id === sent._id)!;
      expect(await read(bob, stored)).toBe('better words');
      expect(stored.editedAt).toBe(res.body.data.message.editedAt);
    });

    it("refuses someone else's message (403), a stranger (404), a former key map (400) and bad input (400)", async () => {
      const sent = await sendToGroup(alice, 'mine');
      const body = await editBody('not yours');
      expect((await api.put(url(sent._id), body, bob.accessToken)).body).toMatchObject({
        success: false,
        code: 'FORBIDDEN',
      });
      expect((await api.put(url(sent._id), body, mallory.accessToken)).status).toBe(404);
      const withMallory = await editBody('leak', [...group(), mallory]);
      expect((await api.put(url(sent._id), withMallory, alice.accessToken)).body.code).toBe(
        'KEY_MAP_MISMATCH',
      );
      for (const bad of [{}, { ...body, iv: 'short' }, { ...body, encryptedMessage: 'not base64!' }]) {
        const res = await api.put(url(sent._id), bad, alice.accessToken);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      }
      expect((await api.put(url('no.such'), body, alice.accessToken)).status).toBe(400);
      expect((await api.put(url('nosuchmessage'), body, alice.accessToken)).status).toBe(404);
    });

    it('refuses an edit and a delete for everyone after 24 hours (409), and still lets a member delete it for themselves', async () => {
      const sent = await sendToGroup(alice, 'yesterday');
      shift += 24 * hour + 60_000;
      try {
        const edited = await api.put(url(sent._id), await editBody('too late'), alice.accessToken);
        expect(edited.status).toBe(409);
        expect(edited.body).toMatchObject({ success: false, code: 'TIME_LIMIT_PASSED' });
        const deleted = await api.call('DELETE', url(sent._id, '?for=everyone'), {
          token: alice.accessToken,
        });
        expect(deleted.status).toBe(409);
        expect(
          (await api.call('DELETE', url(sent._id, '?for=me'), { token: alice.accessToken })).status,
        ).toBe(200);
      } finally {
        shift = 0;
      }
    });
  });

  describe('deleting', () => {
    it('for everyone: a tombstone everywhere, told live, and its ciphertext gone from the log and every read model', async () => {
      const bobHere = sockets[1]!;
      const atBob = listenForChanges(bobHere, 'message deleted');
      const sent = await sendToGroup(alice, 'regrettable');
      const edited = (await api.put(url(sent._id), await editBody('still regrettable'), alice.accessToken))
        .body.data.message as MessageView;
      const reaction = await buildGroupPayload('🔥', keysOf(...group()));
      expect(
        (
          await api.put(
            url(sent._id, '/reaction'),
            { ...reaction, encryptedReaction: reaction.encryptedMessage },
            bob.accessToken,
          )
        ).status,
      ).toBe(200);
      const copy = await copyForNewKey(carol, edited);
      expect((await rewrap(carol, [{ messageId: sent._id, encryptedKey: copy }])).status).toBe(200);
      const traces = [
        sent.content,
        edited.content,
        reaction.encryptedMessage,
        copy,
        ...Object.values(sent.encryptedKeys),
      ].map((c) => c.slice(0, 40));

      expect(
        (await api.call('DELETE', url(sent._id, '?for=everyone'), { token: bob.accessToken })).status,
      ).toBe(403);
      const res = await api.call('DELETE', url(sent._id, '?for=everyone'), { token: alice.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ chatId: groupId, messageId: sent._id });
      await atBob(sent._id).toHaveLength(1);
      // A repeat (a retry after a lost answer) succeeds and changes nothing.
      expect(
        (await api.call('DELETE', url(sent._id, '?for=everyone'), { token: alice.accessToken })).status,
      ).toBe(200);

      for (const user of group()) {
        const tombstone = (await history(user)).find((m) => m._id === sent._id);
        expect(tombstone).toMatchObject({
          deleted: true,
          content: '',
          iv: '',
          encryptedKeys: {},
          seq: sent.seq,
        });
        expect(tombstone).not.toHaveProperty('reactions');
      }
      expect((await api.put(url(sent._id), await editBody('back?'), alice.accessToken)).status).toBe(404);

      const log = await wholeMessageLog(veil);
      expect(log).toContain(sent._id); // its tombstone and receipts are still there
      for (const trace of traces) expect(log).not.toContain(trace);

      for (const name of everyReadModel(veil.ports)) {
        const docs = JSON.stringify(await (await veil.ports.readStore.collection(name)).find({}));
        for (const trace of traces) expect(docs, name).not.toContain(trace);
      }
      if (options.env?.NATS_URL) return;
      // Embedded: the log's files on disk hold no trace either.
      const files = await readdir(path.join(veil.dataDir, 'events'));
      for (const file of files) {
        const bytes = await readFile(path.join(veil.dataDir, 'events', file), 'utf8');
        for (const trace of traces) expect(bytes, file).not.toContain(trace);
      }
    });

    it('for me: gone from my history on every device, still there for the others', async () => {
      const atBob = listenForChanges(sockets[1]!, 'message hidden');
      const sent = await sendToGroup(alice, 'not for bob to keep');
      const res = await api.call('DELETE', url(sent._id, '?for=me'), { token: bob.accessToken });
      expect(res.status).toBe(200);
      await atBob(sent._id).toHaveLength(1);
      expect((await history(bob)).some((m) => m._id === sent._id)).toBe(false);
      expect((await history(alice)).some((m) => m._id === sent._id)).toBe(true);
      // The chat list's preview is the newest message Bob still has, not the one he deleted.
      const newestFor = async (user: TestUser) =>
        ((await api.get('/api/v1/message/unread', user.accessToken)).body.data as any[]).find(
          (entry) => entry.chatId === groupId,
        )?.lastMessage?._id;
      expect(await newestFor(bob)).not.toBe(sent._id);
      expect(await newestFor(alice)).toBe(sent._id);
      expect(
        (await api.call('DELETE', url(sent._id, '?for=me'), { token: mallory.accessToken })).status,
      ).toBe(404);
      expect((await api.call('DELETE', url(sent._id, '?for=whom'), { token: bob.accessToken })).status).toBe(
        400,
      );
      expect((await api.call('DELETE', url(sent._id), { token: bob.accessToken })).status).toBe(400);
    });
  });

  describe('reactions', () => {
    it('are encrypted for the members, told live, toggled per user and kept in the history', async () => {
      const atAlice = listenForChanges(sockets[0]!, 'reaction');
      const sent = await sendToGroup(alice, 'react to me');
      const sealed = await buildGroupPayload('🎉', keysOf(...group()));
      const body = {
        encryptedReaction: sealed.encryptedMessage,
        iv: sealed.iv,
        encryptedKeys: sealed.encryptedKeys,
      };
      expect((await api.put(url(sent._id, '/reaction'), body, bob.accessToken)).status).toBe(200);
      await atAlice(sent._id).toHaveLength(1);
      const reacted = (await history(carol)).find((m) => m._id === sent._id)!;
      expect(Object.keys(reacted.reactions!)).toEqual([bob._id]);
      expect(await read(carol, reacted.reactions![bob._id]!)).toBe('🎉');

      expect((await api.call('DELETE', url(sent._id, '/reaction'), { token: bob.accessToken })).status).toBe(
        200,
      );
      await atAlice(sent._id).toHaveLength(2);
      expect((await history(carol)).find((m) => m._id === sent._id)).not.toHaveProperty('reactions');
    });

    it('refuse a foreign chat (404), a key map that misses a member (400) and a payload too large (400)', async () => {
      const sent = await sendToGroup(alice, 'members only');
      const sealed = await buildGroupPayload('👀', keysOf(...group()));
      const body = {
        encryptedReaction: sealed.encryptedMessage,
        iv: sealed.iv,
        encryptedKeys: sealed.encryptedKeys,
      };
      const foreign = await api.put(url(sent._id, '/reaction'), body, mallory.accessToken);
      expect(foreign.status).toBe(404);
      const direct = (await history(alice, directId))[0]!;
      expect((await api.put(url(direct._id, '/reaction'), body, carol.accessToken)).status).toBe(404);
      const partial = await buildGroupPayload('👀', keysOf(alice, bob));
      const missing = { ...body, encryptedKeys: partial.encryptedKeys };
      expect((await api.put(url(sent._id, '/reaction'), missing, bob.accessToken)).body.code).toBe(
        'KEY_MAP_MISMATCH',
      );
      const huge = { ...body, encryptedReaction: 'A'.repeat(400) };
      expect((await api.put(url(sent._id, '/reaction'), huge, bob.accessToken)).status).toBe(400);
    });
  });

  describe('re-wrapped key copies', () => {
    it("keeps a member's own copy beside the signed key map, read with the new key, and refuses what is not theirs", async () => {
      const sent = await sendToGroup(alice, 'sealed for the old key');
      const newKeys = await generateUserKeyPair();
      const copy = await copyForNewKey(bob, sent, newKeys);
      const stored = await rewrap(bob, [{ messageId: sent._id, encryptedKey: copy }]);
      expect(stored.status).toBe(200);
      expect(stored.body.data).toEqual({ rewrapped: 1 });
      // A retry (a lost answer) stores nothing twice.
      expect((await rewrap(bob, [{ messageId: sent._id, encryptedKey: copy }])).body.data).toEqual({
        rewrapped: 0,
      });

      for (const reader of group()) {
        const seen = (await history(reader)).find((m) => m._id === sent._id)!;
        expect(seen.encryptedKeys).toEqual(sent.encryptedKeys);
        expect(seen.rewrappedKeys).toEqual({ [bob._id]: copy });
      }
      expect(
        await decryptMessage({ ...sent, encryptedKeys: { [bob._id]: copy } }, bob._id, newKeys.privateKey),
      ).toBe('sealed for the old key');

      // Not a member: as if the message did not exist.
      expect((await rewrap(mallory, [{ messageId: sent._id, encryptedKey: copy }])).status).toBe(404);
      const direct = (await history(alice, directId))[0]!;
      expect((await rewrap(carol, [{ messageId: direct._id, encryptedKey: copy }])).status).toBe(404);
      expect((await rewrap(bob, [{ messageId: 'nosuchmessage', encryptedKey: copy }])).status).toBe(404);
      const one = { messageId: sent._id, encryptedKey: copy };
      for (const bad of [
        undefined,
        [],
        [one, one],
        [{ ...one, encryptedKey: 'not base64!' }],
        Array(101).fill(one),
      ]) {
        const res = await rewrap(bob, bad);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      }
    });

    it('are dropped by an edit, whose new key is sealed for every current key', async () => {
      const sent = await sendToGroup(alice, 'to be edited');
      expect(
        (await rewrap(bob, [{ messageId: sent._id, encryptedKey: await copyForNewKey(bob, sent) }])).status,
      ).toBe(200);
      expect((await api.put(url(sent._id), await editBody('edited'), alice.accessToken)).status).toBe(200);
      expect((await history(bob)).find((m) => m._id === sent._id)).not.toHaveProperty('rewrappedKeys');
    });
  });
};
