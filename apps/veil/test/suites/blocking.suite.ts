import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGroupPayload } from '@veil/crypto';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { socketPool } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createSigningUser, sendDirect, type TestUser } from '../support/users.ts';

/**
 * Blocking, played by the blocked user and by a stranger: the list is its owner's alone, and a
 * block stops one-to-one messages (HTTP and socket), new chats and group adds both ways, with
 * the same answer whichever of the two blocked. Real HTTP and sockets into the whole app.
 */
export const blockingSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let mallory: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let directChatId: string;
  const sockets = socketPool(() => veil.url);
  const refused = { success: false, code: 'CONTACT_UNAVAILABLE', message: 'This user is not available' };
  const block = (who: TestUser, other: TestUser) =>
    api.put(`/api/v1/user/blocks/${other._id}`, {}, who.accessToken);
  const unblock = (who: TestUser, other: TestUser) =>
    api.call('DELETE', `/api/v1/user/blocks/${other._id}`, { token: who.accessToken });
  const blockList = async (who: TestUser) =>
    ((await api.get('/api/v1/user/blocks', who.accessToken)).body.data as { _id: string }[]).map(
      (u) => u._id,
    );
  const keysFor = (...users: TestUser[]) => Object.fromEntries(users.map((u) => [u._id, u.keys.publicKey]));

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    [alice, mallory, carol, dave] = await Promise.all([
      createSigningUser(api, 'ba'),
      createSigningUser(api, 'bm'),
      createSigningUser(api, 'bc'),
      createSigningUser(api, 'bd'),
    ]);
    const first = await sendDirect(api, mallory, alice, 'hello before the block');
    expect(first.status).toBe(201);
    directChatId = first.body.data.chat._id as string;
  });
  afterAll(async () => {
    sockets.closeAll();
    await veil.destroy();
  });

  describe('the block list', () => {
    it('is the token owner’s: a block names the other user only, and no one reads another’s list', async () => {
      const blocked = await block(alice, mallory);
      expect(blocked.status).toBe(200);
      expect(blocked.body.data).toEqual([
        expect.objectContaining({ _id: mallory._id, username: mallory.username }),
      ]);
      // Ids in the body or the query do not pick the blocker: the token does.
      const forged = await api.call('PUT', `/api/v1/user/blocks/${carol._id}?userId=${alice._id}`, {
        json: { userId: alice._id },
        token: mallory.accessToken,
      });
      expect(forged.status).toBe(200);
      expect(await blockList(alice)).toEqual([mallory._id]);
      expect(await blockList(mallory)).toEqual([carol._id]);
      // There is no route naming someone else's list.
      expect((await api.get(`/api/v1/user/blocks/${alice._id}`, mallory.accessToken)).status).toBe(404);
      expect(
        (await api.get(`/api/v1/user/blocks?userId=${alice._id}`, mallory.accessToken)).body.data,
      ).toEqual([expect.objectContaining({ _id: carol._id })]);
      expect((await api.get('/api/v1/user/blocks')).status).toBe(401);
      expect((await unblock(mallory, carol)).body.data).toEqual([]);
    });

    it('tells the blocker’s own sockets that the list changed, and no one else', async () => {
      const [blockersSocket, blockedSocket] = await Promise.all([
        sockets.connect(carol),
        sockets.connect(dave),
      ]);
      const told = { carol: 0, dave: 0 };
      blockersSocket.on('blocks updated', () => void told.carol++);
      blockedSocket.on('blocks updated', () => void told.dave++);
      await block(carol, dave);
      await expect.poll(() => told.carol).toBe(1);
      await unblock(carol, dave);
      await expect.poll(() => told.carol).toBe(2);
      expect(told.dave).toBe(0);
    });

    it('refuses bad input with a clear 4xx', async () => {
      expect((await block(alice, alice)).body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      const notAnId = await api.put('/api/v1/user/blocks/not.an.id', {}, alice.accessToken);
      expect(notAnId.status).toBe(400);
      expect(notAnId.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      const unknown = await api.put('/api/v1/user/blocks/01ARZ3NDEKTSV4RRFFQ69G5FAV', {}, alice.accessToken);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ success: false, code: 'USER_NOT_FOUND' });
      // Blocking twice changes nothing.
      expect((await block(alice, mallory)).body.data).toHaveLength(1);
    });
  });

  describe('what a block stops', () => {
    it('refuses the blocked user’s one-to-one messages over HTTP and the socket, and stores none', async () => {
      const overHttp = await sendDirect(api, mallory, alice, 'let me in');
      expect(overHttp.status).toBe(403);
      expect(overHttp.body).toEqual(refused);
      const socket = await sockets.connect(mallory);
      const payload = await buildGroupPayload('over the socket', keysFor(mallory, alice));
      const reply = await socket
        .timeout(10_000)
        .emitWithAck('send message', { chatId: directChatId, ...payload });
      expect(reply).toMatchObject({ ok: false, error: { code: 'CONTACT_UNAVAILABLE' } });
      const history = await api.get(`/api/v1/chat/getallmessages/${directChatId}`, alice.accessToken);
      expect(history.body.data.messages).toHaveLength(1);
    });

    it('stops the blocker too, with the same answer, so the answer does not say who blocked', async () => {
      const back = await sendDirect(api, alice, mallory, 'are you there?');
      expect(back.status).toBe(403);
      expect(back.body).toEqual(refused);
    });

    it('refuses starting a chat either way, and still opens one that exists', async () => {
      await block(dave, mallory);
      for (const [from, to] of [
        [mallory, dave],
        [dave, mallory],
      ] as const) {
        const res = await api.post(`/api/v1/chat/direct/${to._id}`, {}, from.accessToken);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(refused);
      }
      // A first message creates no chat either.
      expect((await sendDirect(api, mallory, dave, 'first contact')).body).toEqual(refused);
      expect((await api.get('/api/v1/chat/getallchats', dave.accessToken)).body.data).toEqual([]);
      expect((await api.get('/api/v1/chat/getallchats', mallory.accessToken)).body.data).toHaveLength(1);
      await unblock(dave, mallory);
      // A chat that exists stays the pair's to open; only sending is refused (above).
      const existing = await api.post(`/api/v1/chat/direct/${alice._id}`, {}, mallory.accessToken);
      expect(existing.status).toBe(200);
      expect(existing.body.data._id).toBe(directChatId);
    });

    it('refuses adding the blocker to a group, at creation and later, and lets others add them', async () => {
      const created = await api.post(
        '/api/v1/chat/creategroupchat',
        { groupName: 'trap', participants: [alice._id, carol._id] },
        mallory.accessToken,
      );
      expect(created.status).toBe(403);
      expect(created.body).toEqual(refused);
      const groupId = await createGroup(api, mallory, 'later', [carol]);
      const added = await api.post(
        `/api/v1/chat/${groupId}/members`,
        { members: [alice._id] },
        mallory.accessToken,
      );
      expect(added.status).toBe(403);
      expect(added.body).toEqual(refused);
      // Someone else may add both: in a shared group the block hides, it does not refuse.
      const shared = await createGroup(api, carol, 'shared', [alice, mallory]);
      const payload = await buildGroupPayload('in the group', keysFor(mallory, alice, carol));
      const inGroup = await api.post(
        `/api/v1/message/sendGroupMessage/${shared}`,
        payload,
        mallory.accessToken,
      );
      expect(inGroup.status).toBe(201);
    });

    it('unblocking restores messages, chats and adds', async () => {
      const unblocked = await unblock(alice, mallory);
      expect(unblocked.status).toBe(200);
      expect(unblocked.body.data).toEqual([]);
      expect((await sendDirect(api, mallory, alice, 'hello again')).status).toBe(201);
      expect((await sendDirect(api, alice, mallory, 'hi')).status).toBe(201);
      const groupId = await createGroup(api, mallory, 'now fine', [alice]);
      expect(groupId).toBeTruthy();
      // Unblocking someone not blocked changes nothing.
      expect((await unblock(alice, mallory)).status).toBe(200);
    });
  });
};
