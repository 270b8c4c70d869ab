import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageView } from '@veil/contracts';
import { buildGroupPayload, decryptMessage } from '@veil/crypto';
import type { Socket } from 'socket.io-client';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { listenForChanges, socketPool, type ClientSocket } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createUser, sendDirect, type TestUser } from '../support/users.ts';

const hour = 3_600_000;
type ChangeEvent = 'edit message' | 'delete message' | 'react to message' | 'remove reaction';

/**
 * Editing, deleting and reacting over a real socket into the whole app: the same commands, checks
 * and error codes as over HTTP, the user taken from the token, the change told to every member's
 * sockets by the fan-out. Run on the embedded app and on NATS + Redis. The services' clock is the
 * test's, so the 24-hour limit is crossed without waiting.
 */
export const socketChangesSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let mallory: TestUser;
  let groupId: string;
  let members: TestUser[];
  const sockets = socketPool(() => veil.url);
  let shift = 0;
  const clock = { now: () => new Date(Date.now() + shift) };

  const keysOf = (users: TestUser[]) => Object.fromEntries(users.map((u) => [u._id, u.keys.publicKey]));
  const sendToGroup = async (from: TestUser, text: string): Promise<MessageView> => {
    const payload = await buildGroupPayload(text, keysOf(members));
    const res = await api.post(`/api/v1/message/sendGroupMessage/${groupId}`, payload, from.accessToken);
    expect(res.status).toBe(201);
    return res.body.data.message;
  };
  const history = async (user: TestUser, chatId = groupId): Promise<MessageView[]> =>
    (await api.get(`/api/v1/chat/getallmessages/${chatId}`, user.accessToken)).body.data.messages;
  const stored = async (user: TestUser, messageId: string) =>
    (await history(user)).find((m) => m._id === messageId);
  const read = (user: TestUser, sealed: Pick<MessageView, 'content' | 'iv' | 'encryptedKeys'>) =>
    decryptMessage(sealed, user._id, user.keys.privateKey);

  const change = (socket: ClientSocket, event: ChangeEvent, payload: unknown) =>
    (socket.timeout(10_000).emitWithAck as (event: string, payload: unknown) => Promise<unknown>)(
      event,
      payload,
    );
  const edit = async (socket: ClientSocket, messageId: string, text: string, users = members) =>
    change(socket, 'edit message', { messageId, ...(await buildGroupPayload(text, keysOf(users))) });
  const react = async (socket: ClientSocket, messageId: string, emoji: string, users = members) => {
    const sealed = await buildGroupPayload(emoji, keysOf(users));
    return change(socket, 'react to message', {
      messageId,
      encryptedReaction: sealed.encryptedMessage,
      iv: sealed.iv,
      encryptedKeys: sealed.encryptedKeys,
    });
  };
  const refused = (code: string) => ({ ok: false, error: { code, message: expect.any(String) } });

  beforeAll(async () => {
    veil = await startTestVeil({ ...options, clock });
    api = createApi(veil.url);
    [alice, bob, carol, dave, mallory] = (await Promise.all(
      ['xa', 'xb', 'xc', 'xd', 'xm'].map((n) => createUser(api, n)),
    )) as [TestUser, TestUser, TestUser, TestUser, TestUser];
    groupId = await createGroup(api, alice, 'socket changes', [bob, carol, dave]);
    members = [alice, bob, carol, dave];
  });
  afterAll(async () => {
    sockets.closeAll();
    await veil.destroy();
  });

  describe('the changes themselves', () => {
    it("edits: acks the edited message, tells every member's sockets, the sender's other one included", async () => {
      const [a, b, aElsewhere] = [
        await sockets.connect(alice),
        await sockets.connect(bob),
        await sockets.connect(alice),
      ];
      const [atBob, atAliceElsewhere] = [
        listenForChanges(b, 'message edited'),
        listenForChanges(aElsewhere, 'message edited'),
      ];
      const sent = await sendToGroup(alice, 'typo hree');
      const reply = (await edit(a, sent._id, 'typo here')) as { ok: true; data: { message: MessageView } };
      expect(reply).toMatchObject({
        ok: true,
        data: { message: { _id: sent._id, editedAt: expect.any(String) } },
      });
      expect(await read(carol, reply.data.message)).toBe('typo here');
      await atBob(sent._id).toHaveLength(1);
      await atAliceElsewhere(sent._id).toHaveLength(1);
      const now = (await stored(bob, sent._id))!;
      expect(await read(bob, now)).toBe('typo here');
      expect(now.editedAt).toBe(reply.data.message.editedAt);
    });

    it('deletes for everyone: a tombstone for every member, told live; for me: gone only from my history', async () => {
      const [a, b] = [await sockets.connect(alice), await sockets.connect(bob)];
      const [deletedAtBob, hiddenAtBob] = [
        listenForChanges(b, 'message deleted'),
        listenForChanges(b, 'message hidden'),
      ];
      const sent = await sendToGroup(alice, 'take it back');
      expect(await change(a, 'delete message', { messageId: sent._id, for: 'everyone' })).toEqual({
        ok: true,
        data: { chatId: groupId, messageId: sent._id },
      });
      await deletedAtBob(sent._id).toHaveLength(1);
      for (const user of members)
        expect(await stored(user, sent._id)).toMatchObject({ deleted: true, content: '', encryptedKeys: {} });

      const kept = await sendToGroup(alice, 'bob hides this');
      expect(await change(b, 'delete message', { messageId: kept._id, for: 'me' })).toMatchObject({
        ok: true,
      });
      await hiddenAtBob(kept._id).toHaveLength(1);
      expect(await stored(bob, kept._id)).toBeUndefined();
      expect(await stored(alice, kept._id)).toBeDefined();
    });

    it('reacts and takes the reaction back, encrypted for the members and told to each', async () => {
      const [a, b] = [await sockets.connect(alice), await sockets.connect(bob)];
      const atAlice = listenForChanges(a, 'reaction');
      const sent = await sendToGroup(alice, 'react to me');
      expect(await react(b, sent._id, '🎉')).toEqual({
        ok: true,
        data: { chatId: groupId, messageId: sent._id },
      });
      await atAlice(sent._id).toHaveLength(1);
      const reacted = (await stored(carol, sent._id))!;
      expect(Object.keys(reacted.reactions!)).toEqual([bob._id]);
      expect(await read(carol, reacted.reactions![bob._id]!)).toBe('🎉');

      expect(await change(b, 'remove reaction', { messageId: sent._id })).toMatchObject({ ok: true });
      await atAlice(sent._id).toHaveLength(2);
      expect(await stored(carol, sent._id)).not.toHaveProperty('reactions');
    });

    it('takes the user from the token, never from the payload', async () => {
      const b = await sockets.connect(bob);
      const sent = await sendToGroup(alice, 'only alice may edit');
      const sealed = await buildGroupPayload('bob pretends', keysOf(members));
      const posing = { messageId: sent._id, ...sealed, userId: alice._id, senderId: alice._id };
      expect(await change(b, 'edit message', posing)).toEqual(refused('FORBIDDEN'));
      expect(await read(alice, (await stored(alice, sent._id))!)).toBe('only alice may edit');
    });
  });

  describe('refusals, with the codes HTTP answers', () => {
    it("refuses someone else's message (403), a stranger (404) and a key map that names a non-member (400)", async () => {
      const [b, m, a] = [
        await sockets.connect(bob),
        await sockets.connect(mallory),
        await sockets.connect(alice),
      ];
      const sent = await sendToGroup(alice, 'mine alone');
      expect(await edit(b, sent._id, 'not yours')).toEqual(refused('FORBIDDEN'));
      expect(await change(b, 'delete message', { messageId: sent._id, for: 'everyone' })).toEqual(
        refused('FORBIDDEN'),
      );
      expect(await edit(m, sent._id, 'stranger')).toEqual(refused('MESSAGE_NOT_FOUND'));
      expect(await edit(a, sent._id, 'leak', [...members, mallory])).toEqual(refused('KEY_MAP_MISMATCH'));
      expect(await read(bob, (await stored(bob, sent._id))!)).toBe('mine alone');
    });

    it('refuses an edit and a delete for everyone after 24 hours (409), and still hides it for me', async () => {
      const a = await sockets.connect(alice);
      const sent = await sendToGroup(alice, 'yesterday');
      shift += 24 * hour + 60_000;
      try {
        expect(await edit(a, sent._id, 'too late')).toEqual(refused('TIME_LIMIT_PASSED'));
        expect(await change(a, 'delete message', { messageId: sent._id, for: 'everyone' })).toEqual(
          refused('TIME_LIMIT_PASSED'),
        );
        expect(await change(a, 'delete message', { messageId: sent._id, for: 'me' })).toMatchObject({
          ok: true,
        });
      } finally {
        shift = 0;
      }
    });

    it('refuses a reaction in a foreign chat (404), including a direct chat of others', async () => {
      const [m, c] = [await sockets.connect(mallory), await sockets.connect(carol)];
      const sent = await sendToGroup(alice, 'members only');
      expect(await react(m, sent._id, '👀')).toEqual(refused('MESSAGE_NOT_FOUND'));
      const direct = (await sendDirect(api, alice, bob, 'just us')).body.data.message as MessageView;
      expect(await react(c, direct._id, '👀', [alice, bob])).toEqual(refused('MESSAGE_NOT_FOUND'));
      expect(await change(m, 'remove reaction', { messageId: sent._id })).toEqual(
        refused('MESSAGE_NOT_FOUND'),
      );
    });

    it('refuses malformed payloads (400) and a change without an ack, and changes nothing', async () => {
      const a = await sockets.connect(alice);
      const sent = await sendToGroup(alice, 'untouched');
      const sealed = await buildGroupPayload('x', keysOf(members));
      for (const [event, payload] of [
        ['edit message', { messageId: sent._id, encryptedMessage: sealed.encryptedMessage }],
        ['edit message', { ...sealed, messageId: 'no.such' }],
        ['delete message', { messageId: sent._id, for: 'whom' }],
        ['delete message', { messageId: sent._id }],
        ['react to message', { messageId: sent._id, encryptedReaction: 'A'.repeat(400), ...sealed }],
        ['remove reaction', 'not an object'],
      ] as const) {
        expect(await change(a, event, payload), `${event} ${JSON.stringify(payload)}`).toEqual(
          refused('VALIDATION_FAILED'),
        );
      }
      const error = new Promise((resolve) => a.once('error', resolve));
      (a as unknown as Socket).emit('delete message', {
        messageId: sent._id,
        for: 'everyone',
      });
      expect(await error).toMatchObject({ code: 'VALIDATION_FAILED' });
      const now = (await stored(bob, sent._id))!;
      expect(now.deleted).toBeUndefined();
      expect(await read(bob, now)).toBe('untouched');
    });

    it('refuses a member who left or was removed: changes (403), sends and a key map naming them (400)', async () => {
      const d = await sockets.connect(dave);
      const a = await sockets.connect(alice);
      const before = await sendToGroup(dave, 'dave was here');
      const removed = await api.call('DELETE', `/api/v1/chat/${groupId}/members/${dave._id}`, {
        token: alice.accessToken,
      });
      expect(removed.status).toBe(200);
      const withDave = members;
      members = [alice, bob, carol];

      expect(await edit(d, before._id, 'rewritten after leaving', members)).toEqual(refused('FORBIDDEN'));
      expect(await change(d, 'delete message', { messageId: before._id, for: 'everyone' })).toEqual(
        refused('FORBIDDEN'),
      );
      expect(await react(d, before._id, '👋', members)).toEqual(refused('MESSAGE_NOT_FOUND'));
      const payload = await buildGroupPayload('let me back', keysOf(withDave));
      expect(await d.timeout(10_000).emitWithAck('send message', { chatId: groupId, ...payload })).toEqual(
        refused('CHAT_NOT_FOUND'),
      );
      // The others may not keep keying for the removed member, neither messages nor changes.
      expect(await a.timeout(10_000).emitWithAck('send message', { chatId: groupId, ...payload })).toEqual(
        refused('KEY_MAP_MISMATCH'),
      );
      const mine = await sendToGroup(alice, 'after dave');
      expect(await edit(a, mine._id, 'for dave too', withDave)).toEqual(refused('KEY_MAP_MISMATCH'));
      expect(await react(a, mine._id, '🙈', withDave)).toEqual(refused('KEY_MAP_MISMATCH'));
      expect(await edit(a, mine._id, 'without dave')).toMatchObject({ ok: true });

      // Leaving is the same as being removed: Carol's own message is hers to change no more.
      const c = await sockets.connect(carol);
      const carols = await sendToGroup(carol, 'carol before leaving');
      expect((await api.post(`/api/v1/chat/${groupId}/leave`, {}, carol.accessToken)).status).toBe(200);
      members = [alice, bob];
      expect(await edit(c, carols._id, 'after leaving', members)).toEqual(refused('FORBIDDEN'));
      expect(await change(c, 'delete message', { messageId: carols._id, for: 'everyone' })).toEqual(
        refused('FORBIDDEN'),
      );
    });
  });
};
