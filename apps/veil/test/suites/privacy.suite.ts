import { afterAll, beforeAll, expect, it } from 'vitest';
import type { MessageView, Privacy } from '@veil/contracts';
import { buildGroupPayload } from '@veil/crypto';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { socketPool } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createUser, type TestUser } from '../support/users.ts';

/**
 * The privacy switches, enforced by the server: read receipts (reciprocal), typing, and who sees
 * one's online state. Over real HTTP and sockets, on the embedded app and on NATS + Redis.
 */
export const privacySuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let chatId: string;
  const sockets = socketPool(() => veil.url);
  const connect = sockets.connect;
  const setPrivacy = (user: TestUser, change: Partial<Privacy>) =>
    api.put(
      '/api/v1/user/privacy',
      { readReceipts: true, typing: true, onlineVisibleTo: 'contacts', ...change },
      user.accessToken,
    );

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    [alice, bob, carol] = (await Promise.all(['pa', 'pb', 'pc'].map((n) => createUser(api, n)))) as [
      TestUser,
      TestUser,
      TestUser,
    ];
    chatId = await createGroup(api, alice, 'private', [bob, carol]);
  });
  afterAll(async () => {
    sockets.closeAll();
    await veil.destroy();
  });

  it('starts with everything shared, stores a change, and refuses bad input', async () => {
    const fresh = await api.get('/api/v1/user/privacy', alice.accessToken);
    expect(fresh.body.data).toEqual({ readReceipts: true, typing: true, onlineVisibleTo: 'contacts' });
    for (const bad of [{}, { readReceipts: 'no', typing: true, onlineVisibleTo: 'contacts' }]) {
      const res = await api.put('/api/v1/user/privacy', bad, alice.accessToken);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    }
    const nobody = await setPrivacy(alice, { onlineVisibleTo: 'nobody' });
    expect(nobody.body.data).toMatchObject({ onlineVisibleTo: 'nobody' });
    expect((await api.get('/api/v1/user/privacy', alice.accessToken)).body.data.onlineVisibleTo).toBe(
      'nobody',
    );
    expect((await api.get('/api/v1/user/privacy')).status).toBe(401);
    await setPrivacy(alice, {});
  });

  it('read receipts are reciprocal: whoever sends none is seen by no one and sees no one', async () => {
    await setPrivacy(bob, { readReceipts: false });
    const [a, b, c] = [await connect(alice), await connect(bob), await connect(carol)];
    const seenAtAlice: { messageId: string; userId: string }[] = [];
    const seenAtBob: { messageId: string; userId: string }[] = [];
    a.on('update seen', (seen) => seenAtAlice.push(seen));
    b.on('update seen', (seen) => seenAtBob.push(seen));
    const payload = await buildGroupPayload('read me', {
      [alice._id]: alice.keys.publicKey,
      [bob._id]: bob.keys.publicKey,
      [carol._id]: carol.keys.publicKey,
    });
    const sent = await api.post(`/api/v1/message/sendGroupMessage/${chatId}`, payload, alice.accessToken);
    const messageId = sent.body.data.message._id as string;
    await b.timeout(5_000).emitWithAck('message seen', { chatId, messageId });
    await c.timeout(5_000).emitWithAck('message seen', { chatId, messageId });

    await expect.poll(() => seenAtAlice.map((s) => s.userId)).toEqual([carol._id]);
    await expect.poll(() => seenAtBob.map((s) => s.userId)).toContain(bob._id);
    expect(seenAtBob.map((s) => s.userId)).not.toContain(carol._id);
    const seenBy = async (user: TestUser) => {
      const res = await api.get(`/api/v1/chat/getallmessages/${chatId}`, user.accessToken);
      return (res.body.data.messages as MessageView[]).find((m) => m._id === messageId)!.seenBy;
    };
    expect(await seenBy(alice)).toEqual({ [carol._id]: true });
    expect(await seenBy(bob)).toEqual({ [bob._id]: true });
    expect(await seenBy(carol)).toEqual({ [carol._id]: true });
    await setPrivacy(bob, {});
    expect(await seenBy(alice)).toEqual({ [bob._id]: true, [carol._id]: true });
  });

  it('typing is not relayed for someone who hides it', async () => {
    const [a, b] = [await connect(alice), await connect(bob)];
    const typing: string[] = [];
    a.on('typing', (notice) => typing.push(notice.userId));
    await setPrivacy(bob, { typing: false });
    b.emit('typing', { chatId });
    await setPrivacy(bob, {});
    b.emit('typing', { chatId });
    await expect.poll(() => typing).toEqual([bob._id]);
    expect(typing).toHaveLength(1);
  });

  it("hides one's online state from contacts, and shows it again", async () => {
    await setPrivacy(carol, { onlineVisibleTo: 'nobody' });
    await connect(carol);
    const a = await connect(alice);
    const online: string[] = [];
    a.on('online', (userId) => online.push(userId));
    // `setup` answers with the online list again.
    const list = new Promise<string[]>((resolve) => a.once('online list', resolve));
    a.emit('setup', { _id: alice._id });
    expect(await list).toContain(bob._id);
    expect(await list).not.toContain(carol._id);
    await setPrivacy(carol, {});
    await expect.poll(() => online).toContain(carol._id);
  });
};
