import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentFolder, type ChatView, type MessageView } from '@veil/contracts';
import { encodeMessageContent } from '@veil/crypto';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { wholeMessageLog } from '../support/message-log.ts';
import { everyReadModel } from '../support/read-models.ts';
import { socketPool } from '../support/sockets.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { encryptedFile, uploadFile } from '../support/uploads.ts';
import { createUser, sendDirect, type TestUser } from '../support/users.ts';

const minute = 60_000;

/**
 * Disappearing messages over real HTTP and sockets: any member sets a chat's timer (an allowed
 * value only), messages sent after it expire on time, and an expired message leaves the
 * history, the read models, the log and the blob store, also when it fell due while Veil was
 * stopped; the files of a message deleted for everyone leave the blob store too. The services'
 * clock is the test's, so a timer runs out without waiting. Run on the embedded app and on
 * NATS + Redis.
 */
export const disappearingSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser, bob: TestUser, mallory: TestUser;
  let chatId: string;
  let shift = 0;
  const clock = { now: () => new Date(Date.now() + shift) };
  const sockets = socketPool(() => veil.url);

  const setTimer = (user: TestUser, seconds: unknown, id = chatId) =>
    api.put(`/api/v1/chat/${id}/disappearing`, { seconds }, user.accessToken);
  const history = async (user: TestUser): Promise<MessageView[]> =>
    (await api.get(`/api/v1/chat/getallmessages/${chatId}`, user.accessToken)).body.data.messages;
  const chat = async (user: TestUser): Promise<ChatView> =>
    (await api.get(`/api/v1/chat/getchatbyid/${chatId}`, user.accessToken)).body.data;
  const storedChunks = (blobId: string) => veil.ports.blobs.list(attachmentFolder(blobId));
  const send = async (from: TestUser, to: TestUser, text: string, attachments: string[] = []) => {
    const content = attachments.length ? encodeMessageContent({ text, attachments: [] }) : text;
    const res = await sendDirect(api, from, to, content, attachments.length ? { attachments } : {});
    expect(res.status).toBe(201);
    return res.body.data.message as MessageView;
  };

  /** Nothing of a message's ciphertext in the log, any read model, or (embedded) the log's files. */
  const expectNoTrace = async (message: MessageView) => {
    const traces = [message.content, ...Object.values(message.encryptedKeys)].map((c) => c.slice(0, 40));
    const log = await wholeMessageLog(veil);
    for (const trace of traces) expect(log).not.toContain(trace);
    for (const name of everyReadModel(veil.ports)) {
      const docs = JSON.stringify(await (await veil.ports.readStore.collection(name)).find({}));
      for (const trace of traces) expect(docs, name).not.toContain(trace);
    }
    if (options.env?.NATS_URL) return;
    for (const file of await readdir(path.join(veil.dataDir, 'events'))) {
      const bytes = await readFile(path.join(veil.dataDir, 'events', file), 'utf8');
      for (const trace of traces) expect(bytes, file).not.toContain(trace);
    }
  };

  const veilOptions = { ...options, clock, env: { ...options.env, MESSAGE_EXPIRY_CHECK_SECONDS: '1' } };

  beforeAll(async () => {
    veil = await startTestVeil(veilOptions);
    api = createApi(veil.url);
    [alice, bob, mallory] = (await Promise.all(['da', 'db', 'dm'].map((n) => createUser(api, n)))) as [
      TestUser,
      TestUser,
      TestUser,
    ];
    chatId = (await sendDirect(api, alice, bob, 'before any timer')).body.data.chat._id;
  });
  afterAll(async () => {
    sockets.closeAll();
    await veil.destroy();
  });

  describe('the timer', () => {
    it('is set by any member of a one-to-one chat, shown on the chat with a system line, and told live', async () => {
      const aliceSocket = await sockets.connect(alice);
      const updates: string[] = [];
      aliceSocket.on('chat updated', ({ chatId: id }) => updates.push(id));
      const res = await setTimer(bob, 3600);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ _id: chatId, disappearingSeconds: 3600 });
      await expect.poll(() => updates, { timeout: 10_000 }).toContain(chatId);
      const seen = await chat(alice);
      expect(seen.disappearingSeconds).toBe(3600);
      expect(seen.notices?.at(-1)).toMatchObject({ kind: 'timer', seconds: 3600, by: { _id: bob._id } });

      expect((await setTimer(alice, 0)).body.data).not.toHaveProperty('disappearingSeconds');
      expect((await chat(bob)).notices?.at(-1)).toMatchObject({ kind: 'timer', seconds: 0 });
    });

    it('refuses a value outside off, 5 minutes, 1 hour, 1 day and 1 week (400), and a stranger (404)', async () => {
      for (const seconds of [1, 60, 600, 604_801, -300, 300.5, '300', null, undefined]) {
        const res = await setTimer(alice, seconds);
        expect(res.status, String(seconds)).toBe(400);
        expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      }
      expect((await api.put(`/api/v1/chat/${chatId}/disappearing`, {}, alice.accessToken)).status).toBe(400);
      const stranger = await setTimer(mallory, 300);
      expect(stranger.status).toBe(404);
      expect(stranger.body).toMatchObject({ success: false, code: 'CHAT_NOT_FOUND' });
    });
  });

  describe('expiry', () => {
    it('applies to messages sent after the timer is set: on time, they leave the history, the log, the read models and the blob store', async () => {
      const bobSocket = await sockets.connect(bob);
      const expired: string[] = [];
      bobSocket.on('message expired', ({ messageId }) => expired.push(messageId));
      const kept = await send(alice, bob, 'sent before the timer');
      expect(kept).not.toHaveProperty('expiresAt');
      expect((await setTimer(alice, 300)).status).toBe(200);
      const file = await encryptedFile(300_000);
      const blobId = await uploadFile(api, alice, chatId, file);
      const timed = await send(alice, bob, 'gone in five minutes', [blobId]);
      expect(Date.parse(timed.expiresAt!) - Date.parse(timed.createdAt)).toBeGreaterThanOrEqual(
        5 * minute - 1000,
      );
      expect((await history(bob)).find((m) => m._id === timed._id)?.expiresAt).toBe(timed.expiresAt);
      expect(await storedChunks(blobId)).toHaveLength(2);

      shift = 4 * minute;
      // Not yet: a pass or two later, it is still there.
      await expect
        .poll(() => history(bob), { timeout: 3000 })
        .toContainEqual(expect.objectContaining({ _id: timed._id }));
      shift = 5 * minute + 2000;
      await expect.poll(() => expired, { timeout: 15_000 }).toContain(timed._id);
      // The socket hears it from the log; the history follows once the timeline has applied it.
      for (const user of [alice, bob]) {
        const ids = () => history(user).then((page) => page.map((m) => m._id));
        await expect.poll(ids, { timeout: 15_000 }).not.toContain(timed._id);
        expect(await ids()).toContain(kept._id);
      }
      await expect.poll(() => storedChunks(blobId), { timeout: 15_000 }).toEqual([]);
      expect((await api.get(`/api/v1/attachments/blobs/${blobId}`, bob.accessToken)).status).toBe(404);
      await expectNoTrace(timed);
    });

    it('expires a message that fell due while Veil was stopped, as soon as it starts again', async () => {
      expect((await setTimer(bob, 3600)).status).toBe(200);
      const timed = await send(bob, alice, 'due while nobody runs');
      sockets.closeAll();
      await veil.stop();
      shift += 61 * minute;
      veil = await startTestVeil(veilOptions, veil.dataDir);
      api = createApi(veil.url);
      await expect
        .poll(async () => (await history(alice)).map((m) => m._id), { timeout: 15_000 })
        .not.toContain(timed._id);
      await expectNoTrace(timed);
    });
  });

  it('removes the files of a message deleted for everyone from the blob store', async () => {
    expect((await setTimer(alice, 0)).status).toBe(200);
    const blobId = await uploadFile(api, alice, chatId, await encryptedFile(1000));
    const sent = await send(alice, bob, 'a file I regret', [blobId]);
    expect(await storedChunks(blobId)).toHaveLength(1);
    const res = await api.call('DELETE', `/api/v1/message/${sent._id}?for=everyone`, {
      token: alice.accessToken,
    });
    expect(res.status).toBe(200);
    expect((await api.get(`/api/v1/attachments/blobs/${blobId}`, bob.accessToken)).status).toBe(404);
    await expect.poll(() => storedChunks(blobId), { timeout: 15_000 }).toEqual([]);
  });
};
