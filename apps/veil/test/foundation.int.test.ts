import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndividualPayload, decryptMessage } from '@veil/crypto';
import { loadConfig } from '../src/index.ts';
import { everyReadModel, serviceReadModels } from './support/read-models.ts';
import { createApi, type Api } from './support/api-client.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createUser } from './support/users.ts';

let veil: TestVeil;
let api: Api;

beforeAll(async () => {
  veil = await startTestVeil();
  api = createApi(veil.url);
});
afterAll(() => veil.destroy());

describe('bad input gets a 4xx JSON error and the process keeps serving', () => {
  const expectJsonError = (res: { status: number; body: unknown }, status: number) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|node_modules|stack/i);
  };

  it('malformed JSON', async () => {
    expectJsonError(
      await api.call('POST', '/api/v1/user/login', {
        raw: { body: '{"username":', contentType: 'application/json' },
      }),
      400,
    );
  });
  it('oversized body', async () => {
    const body = JSON.stringify({ username: 'a', password: 'x'.repeat(2 * 1024 * 1024) });
    expectJsonError(
      await api.call('POST', '/api/v1/user/login', { raw: { body, contentType: 'application/json' } }),
      413,
    );
  });
  it('unknown routes', async () => {
    expectJsonError(await api.get('/api/v1/nothing/here'), 404);
    expectJsonError(await api.call('DELETE', '/api/v1/user/login'), 404);
  });
  it('schema violations', async () => {
    expectJsonError(await api.post('/api/v1/user/login', { username: 42 }), 400);
    expectJsonError(await api.post('/api/v1/user/login', [1, 2, 3]), 400);
    expectJsonError(await api.get('/api/v1/user/publicKey/..%2F..%2Fetc'), 400);
    expectJsonError(await api.get('/api/v1/chat/getallmessages/abc?limit=-5', 'x'), 401);
  });
  it('still serves afterwards', async () => {
    expect((await fetch(`${veil.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${veil.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await api.get('/api/v1/user/getallusers')).status).toBe(200);
  });
});

describe('a service that cannot answer', () => {
  it('gives a clear 503, and the gateway reports not ready', async () => {
    const lonely = await startTestVeil({ services: ['gateway'] });
    try {
      const res = await createApi(lonely.url).get('/api/v1/user/getallusers');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: 'UNAVAILABLE' });
      expect((await fetch(`${lonely.url}/readyz`)).status).toBe(503);
    } finally {
      await lonely.destroy();
    }
  });
});

describe('configuration', () => {
  it('names the variable that has a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ NATS_URL: 'http://x' })).toThrow(/NATS_URL/);
    expect(() => loadConfig({ VEIL_SERVICES: 'auth,bogus' })).toThrow(/VEIL_SERVICES/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_ACCESS_KEY/);
    expect(loadConfig({}).VEIL_SERVICES).toEqual(['auth', 'user', 'chat', 'message', 'gateway', 'realtime']);
  });
});

describe('the embedded app keeps its data on disk', () => {
  it('keeps users, chats and messages across a restart, and stores no plaintext', async () => {
    const secret = `attack at dawn ${Date.now()}`;
    const alice = await createUser(api, 'keep');
    const bob = await createUser(api, 'keep');
    const payload = await buildIndividualPayload(secret, {
      recipientId: bob._id,
      recipientKey: bob.keys.publicKey,
      senderId: alice._id,
      senderKey: alice.keys.publicKey,
    });
    const sent = await api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      payload,
      alice.accessToken,
    );
    expect(sent.status).toBe(201);
    const chatId = sent.body.data.chat._id;

    const snapshot = async () =>
      Promise.all(
        serviceReadModels(veil.ports).map(async (name) =>
          (await veil.ports.readStore.collection(name)).find({}, { sort: { _id: 1 } }),
        ),
      );
    // The projections store the send a moment after it is answered: compare once they are still.
    let before = await snapshot();
    await expect
      .poll(async () => {
        const now = await snapshot();
        const still = isDeepStrictEqual(now, before);
        before = now;
        return still;
      })
      .toBe(true);

    // The read models are in the event log's file: a restart finds them at its head (restart.int.test.ts).
    veil = await veil.restart();
    api = createApi(veil.url);
    expect(await snapshot()).toEqual(before);

    const login = await api.post('/api/v1/user/login', { username: bob.username, password: bob.password });
    expect(login.status).toBe(200);
    const token = login.body.data.user.accesstoken;
    const chats = await api.get('/api/v1/chat/getallchats', token);
    expect(chats.body.data.map((c: { _id: string }) => c._id)).toEqual([chatId]);
    const history = await api.get(`/api/v1/chat/getallmessages/${chatId}`, token);
    expect(await decryptMessage(history.body.data.messages[0], bob._id, bob.keys.privateKey)).toBe(secret);

    // Every read model the services keep.
    for (const name of everyReadModel(veil.ports)) {
      const docs = await (await veil.ports.readStore.collection(name)).find({});
      expect(JSON.stringify(docs)).not.toContain(secret.slice(0, 12));
    }
    expect(await veil.ports.messageTimeline!.page({ chatId, order: 'newest', limit: 10 })).toHaveLength(1);

    // Everything the server wrote to disk: the event log, blobs, keys. The plaintext is nowhere.
    const files = (await readdir(veil.dataDir, { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    );
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = await readFile(path.join(file.parentPath, file.name));
      expect(bytes.includes(Buffer.from(secret)), file.name).toBe(false);
      expect(bytes.includes(Buffer.from(secret.slice(0, 12))), file.name).toBe(false);
    }
  });
});
