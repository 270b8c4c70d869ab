import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChatView, MessageView } from '@veil/contracts';
import { buildGroupPayload } from '@veil/crypto';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { makePng } from '../support/images.ts';
import { connectSocket, type ClientSocket } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createUser, registerForm, sendDirect, type TestUser } from '../support/users.ts';

/**
 * Groups over real HTTP and sockets: the creator is admin; admins add (who then read from the
 * moment they joined), remove (who then stop receiving and are refused), promote, rename and set
 * the picture; anyone leaves, and a last admin leaving promotes someone. Every change is a
 * system line. Run on the embedded app and on NATS + Redis.
 */
export const groupsSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let mallory: TestUser;
  let chatId: string;
  let members: TestUser[];
  const sockets: ClientSocket[] = [];

  const keysOf = (users: TestUser[]) => Object.fromEntries(users.map((u) => [u._id, u.keys.publicKey]));
  const path = (rest = '') => `/api/v1/chat/${chatId}${rest}`;
  const send = async (from: TestUser, text: string, keyedFor = members) =>
    api.post(
      `/api/v1/message/sendGroupMessage/${chatId}`,
      await buildGroupPayload(text, keysOf(keyedFor)),
      from.accessToken,
    );
  const chatAs = async (user: TestUser): Promise<ChatView> =>
    (await api.get(path().replace('/chat/', '/chat/getchatbyid/'), user.accessToken)).body.data;
  const historyAs = (user: TestUser) => api.get(`/api/v1/chat/getallmessages/${chatId}`, user.accessToken);
  /** What a socket receives of one kind from now on. */
  const inbox = <T>(socket: ClientSocket, event: 'message received' | 'chat updated') => {
    const received: T[] = [];
    socket.on(event as 'chat updated', (payload) => void received.push(payload as T));
    return received;
  };

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    [alice, bob, carol, dave, mallory] = (await Promise.all(
      ['ga', 'gb', 'gc', 'gd', 'gm'].map((n) => createUser(api, n)),
    )) as [TestUser, TestUser, TestUser, TestUser, TestUser];
    chatId = await createGroup(api, alice, 'Founders', [bob, carol]);
    members = [alice, bob, carol];
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await veil.destroy();
  });

  it('makes the creator admin and shows the creation as a system line', async () => {
    const chat = await chatAs(bob);
    expect(chat.admins).toEqual([alice._id]);
    expect(chat.groupPicture).toBeNull();
    expect(chat.notices).toEqual([
      expect.objectContaining({
        kind: 'created',
        by: expect.objectContaining({ _id: alice._id }),
        name: 'Founders',
      }),
    ]);
  });

  it('lets only admins change the group (403), and no stranger (404)', async () => {
    expect((await api.post(path('/members'), { members: [dave._id] }, bob.accessToken)).status).toBe(403);
    const removing = await api.call('DELETE', path(`/members/${carol._id}`), { token: bob.accessToken });
    expect(removing.body).toMatchObject({ success: false, code: 'FORBIDDEN' });
    expect((await api.put(path('/name'), { groupName: 'Mine' }, bob.accessToken)).status).toBe(403);
    expect((await api.post(path('/admins'), { userId: bob._id }, bob.accessToken)).status).toBe(403);
    expect((await api.post(path('/members'), { members: [mallory._id] }, mallory.accessToken)).status).toBe(
      404,
    );
    expect((await api.post(path('/leave'), {}, mallory.accessToken)).status).toBe(404);
  });

  it('refuses bad input with a 4xx: no list, an unknown user, members already in, an empty name, a direct chat', async () => {
    for (const body of [{}, { members: 'x' }, { members: [] }, { members: ['bad id!'] }]) {
      const res = await api.post(path('/members'), body, alice.accessToken);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    }
    expect((await api.post(path('/members'), { members: ['nosuchuser'] }, alice.accessToken)).status).toBe(
      404,
    );
    expect((await api.post(path('/members'), { members: [bob._id] }, alice.accessToken)).status).toBe(400);
    expect((await api.put(path('/name'), { groupName: '   ' }, alice.accessToken)).status).toBe(400);
    const direct = (await sendDirect(api, alice, mallory, 'hi')).body.data.chat._id;
    const res = await api.post(`/api/v1/chat/${direct}/members`, { members: [dave._id] }, alice.accessToken);
    expect(res.status).toBe(400);
  });

  it('adds a member, who reads from the moment they joined and receives live from then on', async () => {
    expect((await send(alice, 'before dave')).status).toBe(201);
    const daveSocket = await connectSocket(veil.url, dave);
    sockets.push(daveSocket);
    const updates = inbox<{ chatId: string }>(daveSocket, 'chat updated');
    const received = inbox<{ message: MessageView }>(daveSocket, 'message received');

    const added = await api.post(path('/members'), { members: [dave._id] }, alice.accessToken);
    expect(added.status).toBe(200);
    expect(added.body.data.participants.map((p: { _id: string }) => p._id)).toContain(dave._id);
    members = [alice, bob, carol, dave];
    await expect.poll(() => updates.some((u) => u.chatId === chatId)).toBe(true);

    const after = await send(bob, 'welcome dave');
    expect(after.status).toBe(201);
    await expect.poll(() => received.map((r) => r.message._id)).toContain(after.body.data.message._id);
    const history = (await historyAs(dave)).body.data.messages as MessageView[];
    expect(history.map((m) => m._id)).toEqual([after.body.data.message._id]);
    const notice = (await chatAs(dave)).notices!.at(-1);
    expect(notice).toMatchObject({ kind: 'added', by: { _id: alice._id }, members: [{ _id: dave._id }] });
  });

  it('removes a member: their socket stops receiving at once, they cannot send or change their messages, and they read the group as it was up to their removal', async () => {
    const sent = await send(carol, 'carol was here');
    const carolMessage = sent.body.data.message as MessageView;
    const carolSocket = await connectSocket(veil.url, carol);
    const bobSocket = await connectSocket(veil.url, bob);
    sockets.push(carolSocket, bobSocket);
    carolSocket.emit('join chat', chatId);
    const [atCarol, atBob] = [
      inbox<{ message: MessageView }>(carolSocket, 'message received'),
      inbox<{ message: MessageView }>(bobSocket, 'message received'),
    ];
    const carolUpdates = inbox<{ chatId: string }>(carolSocket, 'chat updated');

    const removed = await api.call('DELETE', path(`/members/${carol._id}`), { token: alice.accessToken });
    expect(removed.status).toBe(200);
    members = [alice, bob, dave];
    await expect.poll(() => carolUpdates.length).toBeGreaterThan(0);

    // A key map that still names her is refused; one without her is delivered to everyone else.
    expect((await send(alice, 'still for carol?', [...members, carol])).body.code).toBe('KEY_MAP_MISMATCH');
    const after = (await send(alice, 'after carol')).body.data.message as MessageView;
    await expect.poll(() => atBob.map((r) => r.message._id)).toContain(after._id);
    expect(atCarol).toEqual([]);

    expect((await send(carol, 'let me back', [alice, bob, dave, carol])).status).toBe(404);
    // She keeps what was sealed for her, up to her removal, and nothing after it.
    const kept = (await historyAs(carol)).body.data.messages as MessageView[];
    expect(kept.map((m) => m._id)).toContain(carolMessage._id);
    expect(kept.map((m) => m._id)).not.toContain(after._id);
    expect(kept.every((m) => m.encryptedKeys[carol._id])).toBe(true);
    expect(
      (
        await api.get(`/api/v1/chat/getallmessages/${chatId}?after=${carolMessage.seq}`, carol.accessToken)
      ).body.data.messages.map((m: MessageView) => m._id),
    ).toEqual([]);
    const asCarol = await chatAs(carol);
    expect(asCarol.removedFromGroup).toMatchObject({ by: { _id: alice._id } });
    expect(asCarol.notices!.at(-1)).toMatchObject({ kind: 'removed', members: [{ _id: carol._id }] });
    const edit = await buildGroupPayload('edited after leaving', keysOf(members));
    expect((await api.put(`/api/v1/message/${carolMessage._id}`, edit, carol.accessToken)).status).toBe(403);
    const deleting = await api.call('DELETE', `/api/v1/message/${carolMessage._id}?for=everyone`, {
      token: carol.accessToken,
    });
    expect(deleting.status).toBe(403);
    const chats = (await api.get('/api/v1/chat/getallchats', carol.accessToken)).body.data as ChatView[];
    expect(chats.find((c) => c._id === chatId)?.removedFromGroup).toBeDefined();
    expect((await chatAs(alice)).notices!.at(-1)).toMatchObject({
      kind: 'removed',
      members: [{ _id: carol._id }],
    });
  });

  it('adds a removed member back: sending works again, the history before the removal stays, the time away stays unread', async () => {
    const whileAway = (await send(alice, 'while carol was away')).body.data.message as MessageView;
    const before = ((await historyAs(carol)).body.data.messages as MessageView[]).map((m) => m._id);
    expect(before).not.toContain(whileAway._id);
    const added = await api.post(path('/members'), { members: [carol._id] }, alice.accessToken);
    expect(added.status).toBe(200);
    members = [alice, bob, dave, carol];
    expect((await chatAs(carol)).removedFromGroup).toBeUndefined();
    const back = await send(carol, 'carol is back');
    expect(back.status).toBe(201);
    const history = ((await historyAs(carol)).body.data.messages as MessageView[]).map((m) => m._id);
    expect(history).toEqual([...before, back.body.data.message._id]);
    // Out again: the group she sees stops changing with the group (a rename is not hers to see).
    expect(
      (await api.call('DELETE', path(`/members/${carol._id}`), { token: alice.accessToken })).status,
    ).toBe(200);
    members = [alice, bob, dave];
  });

  it('promotes an admin, who renames the group and sets its picture', async () => {
    expect((await api.post(path('/admins'), { userId: bob._id }, alice.accessToken)).status).toBe(200);
    const renamed = await api.put(path('/name'), { groupName: 'Builders' }, bob.accessToken);
    expect(renamed.body.data).toMatchObject({ chatName: 'Builders', admins: [alice._id, bob._id] });
    const form = registerForm({}, { bytes: makePng(8, 8), name: 'g.png', type: 'image/png' });
    const pictured = await api.call('PUT', path('/picture'), { token: bob.accessToken, form });
    expect(pictured.status).toBe(200);
    expect(pictured.body.data.groupPicture).toMatch(/^\/api\/v1\/media\/avatars\//);
    expect((await fetch(`${veil.url}${pictured.body.data.groupPicture}`)).status).toBe(200);
    const kinds = (await chatAs(dave)).notices!.map((n) => n.kind);
    expect(kinds.slice(-3)).toEqual(['promoted', 'renamed', 'picture']);
    const asCarol = await chatAs(carol);
    expect(asCarol).toMatchObject({ chatName: 'Founders', groupPicture: null });
    expect(asCarol.notices!.at(-1)!.kind).toBe('removed');
  });

  it('lets anyone leave; the last admin leaving promotes the longest-standing member', async () => {
    const left = await api.post(path('/leave'), {}, alice.accessToken);
    expect(left.status).toBe(200);
    expect(left.body.data).toBeNull();
    expect((await chatAs(bob)).admins).toEqual([bob._id]);
    expect((await api.post(path('/leave'), {}, bob.accessToken)).status).toBe(200);
    const chat = await chatAs(dave);
    expect(chat.admins).toEqual([dave._id]);
    expect(chat.participants.map((p) => p._id)).toEqual([dave._id]);
    expect(chat.notices!.slice(-3).map((n) => [n.kind, n.members.map((m) => m._id)])).toEqual([
      ['left', [alice._id]],
      ['left', [bob._id]],
      ['promoted', [dave._id]],
    ]);
  });
};
