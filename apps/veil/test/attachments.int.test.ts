import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentFolder } from '@veil/contracts';
import { buildGroupPayload, encodeMessageContent, encryptedSizeOf, openAttachmentCipher } from '@veil/crypto';
import { uniquePrefix } from '@veil/test-env';
import { createApi, type Api } from './support/api-client.ts';
import {
  encryptedFile,
  putChunk as putChunkOver,
  startUpload as startUploadOver,
  uploadFile,
} from './support/uploads.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createGroup, createUser, sendDirect, type TestUser } from './support/users.ts';

/**
 * Encrypted attachments over real HTTP: who may read a blob, the size limit and quota, malformed
 * and truncated uploads, and the sweep of uploads never sent, on a clock the test moves. Run on
 * the embedded app (files under DATA_DIR/blobs) and with the MinIO adapter against an
 * S3-compatible server (s3rver) started on loopback.
 */
interface BlobBackend {
  env: Record<string, string>;
  close(): Promise<void>;
}

const filesUnderDataDir = async (): Promise<BlobBackend> => ({ env: {}, close: async () => {} });

const s3OnLoopback = async (): Promise<BlobBackend> => {
  const directory = await mkdtemp(path.join(tmpdir(), 'veil-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const address = (await server.run()) as AddressInfo;
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_BUCKET: uniquePrefix('veilfiles').toLowerCase(),
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};

const attachmentSuite = (makeBackend: () => Promise<BlobBackend>) => {
  const maxFileBytes = 1024 * 1024;
  const graceSeconds = 3600;
  let backend: BlobBackend;
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser, bob: TestUser, carol: TestUser;
  let aliceBobChat: string, carolAliceChat: string;
  let clockOffsetMs = 0;

  /** The chunks the blob store holds for a blob, by index. */
  const storedChunks = async (blobId: string) => {
    const folder = attachmentFolder(blobId);
    return (await veil.ports.blobs.list(folder)).map((key) => key.slice(folder.length)).sort();
  };
  const allStoredKeys = () => veil.ports.blobs.list('attachments/');

  const startUpload = (user: TestUser, chatId: string, size: number) =>
    startUploadOver(api, user, chatId, size);
  const putChunk = (user: TestUser, blobId: string, index: number | string, bytes: Uint8Array) =>
    putChunkOver(api, user, blobId, index, bytes);
  const upload = (user: TestUser, chatId: string, file: Parameters<typeof uploadFile>[3]) =>
    uploadFile(api, user, chatId, file);

  const sendWith = (from: TestUser, to: TestUser, blobIds: string[]) =>
    sendDirect(api, from, to, encodeMessageContent({ text: 'files', attachments: [] }), {
      attachments: blobIds,
    });

  const readChunk = (user: TestUser, blobId: string, index: number) =>
    fetch(`${veil.url}/api/v1/attachments/blobs/${blobId}/chunks/${index}`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });

  beforeAll(async () => {
    backend = await makeBackend();
    veil = await startTestVeil({
      env: {
        ...backend.env,
        ATTACHMENT_MAX_BYTES: String(maxFileBytes),
        ATTACHMENT_QUOTA_BYTES: String(3 * maxFileBytes + 1024),
        ATTACHMENT_GRACE_SECONDS: String(graceSeconds),
        ATTACHMENT_SWEEP_SECONDS: '1',
      },
      clock: { now: () => new Date(Date.now() + clockOffsetMs) },
    });
    api = createApi(veil.url);
    [alice, bob, carol] = await Promise.all([
      createUser(api, 'alice'),
      createUser(api, 'bob'),
      createUser(api, 'carol'),
    ]);
    aliceBobChat = (await sendDirect(api, alice, bob, 'hi')).body.data.chat._id;
    carolAliceChat = (await sendDirect(api, carol, alice, 'hi')).body.data.chat._id;
  }, 60_000);

  afterAll(async () => {
    await veil?.destroy();
    await backend?.close();
  });

  it('uploads in any chunk order, resumes from what is stored, and a member decrypts what was sent', async () => {
    const file = await encryptedFile(600_000);
    const started = await startUpload(alice, aliceBobChat, encryptedSizeOf(600_000));
    expect(started.status).toBe(201);
    const { blobId, chunkCount } = started.body.data;
    expect(chunkCount).toBe(3);
    await putChunk(alice, blobId, 2, file.chunks[2]!);
    await putChunk(alice, blobId, 0, file.chunks[0]!);
    const status = await api.get(`/api/v1/attachments/uploads/${blobId}`, alice.accessToken);
    expect(status.body.data.received).toEqual([0, 2]);
    await putChunk(alice, blobId, 1, file.chunks[1]!);
    expect(
      (await api.post(`/api/v1/attachments/uploads/${blobId}/complete`, {}, alice.accessToken)).status,
    ).toBe(200);
    expect((await sendWith(alice, bob, [blobId])).status).toBe(201);

    const meta = await api.get(`/api/v1/attachments/blobs/${blobId}`, bob.accessToken);
    expect(meta.body.data).toMatchObject({ blobId, chatId: aliceBobChat, chunkCount: 3 });
    const reader = await openAttachmentCipher(file.cipher.secret);
    const parts = [];
    for (let i = 0; i < 3; i++) {
      const res = await readChunk(bob, blobId, i);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      parts.push(await reader.decryptChunk(i, new Uint8Array(await res.arrayBuffer())));
    }
    expect(Buffer.from(await new Blob(parts).arrayBuffer()).equals(Buffer.from(file.plain))).toBe(true);
    // Sent once: naming it again in another message is refused.
    expect((await sendWith(alice, bob, [blobId])).status).toBe(400);
  });

  it("answers 404 to a non-member, to another chat's member and for another user's upload", async () => {
    const blobId = await upload(alice, aliceBobChat, await encryptedFile(1000));
    expect((await sendWith(alice, bob, [blobId])).status).toBe(201);
    // Carol shares a chat with Alice, not this one.
    for (const res of [
      await api.get(`/api/v1/attachments/blobs/${blobId}`, carol.accessToken),
      await api.call('GET', `/api/v1/attachments/blobs/${blobId}/chunks/0`, { token: carol.accessToken }),
      await api.get(`/api/v1/attachments/blobs/NOSUCHBLOB`, bob.accessToken),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
    // A blob uploaded to one chat cannot be sent in another.
    const other = await upload(alice, carolAliceChat, await encryptedFile(10));
    expect((await sendWith(alice, bob, [other])).status).toBe(400);
    // Bob cannot add chunks to, complete or cancel Alice's upload, nor start one in a chat not his.
    const pending = (await startUpload(alice, aliceBobChat, encryptedSizeOf(10))).body.data.blobId;
    expect((await putChunk(bob, pending, 0, new Uint8Array(26))).status).toBe(404);
    expect(
      (await api.post(`/api/v1/attachments/uploads/${pending}/complete`, {}, bob.accessToken)).status,
    ).toBe(404);
    expect(
      (await api.call('DELETE', `/api/v1/attachments/uploads/${pending}`, { token: bob.accessToken })).status,
    ).toBe(404);
    expect((await startUpload(bob, carolAliceChat, 100)).status).toBe(404);
    // Nor read it before it is complete, even as a member.
    expect((await api.get(`/api/v1/attachments/blobs/${pending}`, bob.accessToken)).status).toBe(404);
    expect(await storedChunks(pending)).toEqual([]);
  });

  it('lets a member an admin removed read the files of the messages they kept, and no later ones', async () => {
    const groupId = await createGroup(api, alice, 'Files', [bob, carol]);
    const sendToGroup = async (keyedFor: TestUser[], blobId: string) => {
      const keys = Object.fromEntries(keyedFor.map((user) => [user._id, user.keys.publicKey]));
      const payload = await buildGroupPayload(encodeMessageContent({ text: 'files', attachments: [] }), keys);
      const sent = await api.post(
        `/api/v1/message/sendGroupMessage/${groupId}`,
        { ...payload, attachments: [blobId] },
        alice.accessToken,
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    };
    const kept = await upload(alice, groupId, await encryptedFile(100));
    await sendToGroup([alice, bob, carol], kept);
    expect(
      (await api.call('DELETE', `/api/v1/chat/${groupId}/members/${bob._id}`, { token: alice.accessToken }))
        .status,
    ).toBe(200);
    const later = await upload(alice, groupId, await encryptedFile(100));
    await sendToGroup([alice, carol], later);
    expect((await api.get(`/api/v1/attachments/blobs/${kept}`, bob.accessToken)).status).toBe(200);
    expect((await readChunk(bob, kept, 0)).status).toBe(200);
    expect((await api.get(`/api/v1/attachments/blobs/${later}`, bob.accessToken)).status).toBe(404);
    expect((await readChunk(bob, later, 0)).status).toBe(404);
    expect((await startUpload(bob, groupId, encryptedSizeOf(10))).status).toBe(404);
  });

  it('refuses a file over the size limit or the quota with 413 before anything is stored', async () => {
    const before = await allStoredKeys();
    const over = await startUpload(carol, carolAliceChat, encryptedSizeOf(maxFileBytes + 1));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect((await startUpload(carol, carolAliceChat, encryptedSizeOf(maxFileBytes))).status).toBe(201);
    expect((await startUpload(carol, carolAliceChat, encryptedSizeOf(maxFileBytes))).status).toBe(201);
    expect((await startUpload(carol, carolAliceChat, encryptedSizeOf(maxFileBytes))).status).toBe(201);
    const quota = await startUpload(carol, carolAliceChat, encryptedSizeOf(1000));
    expect(quota.status).toBe(413);
    expect(quota.body.message).toMatch(/quota/);
    expect(await allStoredKeys()).toEqual(before);
    // A size no file encrypts to.
    expect((await startUpload(alice, aliceBobChat, 5)).status).toBe(400);
  });

  it('refuses malformed and truncated chunks with 4xx and keeps nothing of them; a cancel removes the rest', async () => {
    const file = await encryptedFile(300_000);
    const { blobId } = (await startUpload(alice, aliceBobChat, encryptedSizeOf(300_000))).body.data;
    const short = file.chunks[0]!.subarray(0, 1000);
    const cases = [
      { res: await putChunk(alice, blobId, 0, short), status: 400, message: /must be 262160 bytes/ },
      { res: await putChunk(alice, blobId, 1, file.chunks[0]!), status: 400, message: /must be/ },
      { res: await putChunk(alice, blobId, 2, file.chunks[1]!), status: 400, message: /index/ },
      { res: await putChunk(alice, blobId, 'x', file.chunks[1]!), status: 400, message: /index/ },
      { res: await putChunk(alice, blobId, 0, new Uint8Array(262_161)), status: 413, message: /too large/ },
      {
        res: await api.call('PUT', `/api/v1/attachments/uploads/${blobId}/chunks/0`, {
          token: alice.accessToken,
          raw: { body: file.chunks[0]!, contentType: 'text/plain' },
        }),
        status: 415,
        message: /octet-stream/,
      },
    ];
    for (const { res, status, message } of cases) {
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, message: expect.stringMatching(message) });
    }
    expect(await storedChunks(blobId)).toEqual([]);
    expect((await putChunk(alice, blobId, 1, file.chunks[1]!)).status).toBe(200);
    const incomplete = await api.post(
      `/api/v1/attachments/uploads/${blobId}/complete`,
      {},
      alice.accessToken,
    );
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.message).toMatch(/missing chunks 0/);
    expect((await sendWith(alice, bob, [blobId])).status).toBe(400);
    expect(
      (await api.call('DELETE', `/api/v1/attachments/uploads/${blobId}`, { token: alice.accessToken }))
        .status,
    ).toBe(200);
    expect(await storedChunks(blobId)).toEqual([]);
    expect((await api.get(`/api/v1/attachments/uploads/${blobId}`, alice.accessToken)).status).toBe(404);
  });

  it('sweeps uploads never sent once the grace period has passed, and keeps those sent', async () => {
    const sent = await upload(bob, aliceBobChat, await encryptedFile(5000));
    expect((await sendWith(bob, alice, [sent])).status).toBe(201);
    const unsent = await upload(bob, aliceBobChat, await encryptedFile(5000));
    const partial = (await startUpload(bob, aliceBobChat, encryptedSizeOf(300_000))).body.data.blobId;
    expect((await putChunk(bob, partial, 1, (await encryptedFile(300_000)).chunks[1]!)).status).toBe(200);

    // Started later: still within its grace period when the others' has passed.
    clockOffsetMs = (graceSeconds - 60) * 1000;
    const young = await upload(bob, aliceBobChat, await encryptedFile(5000));

    clockOffsetMs = (graceSeconds + 60) * 1000;
    await expect.poll(() => storedChunks(unsent), { timeout: 10_000 }).toEqual([]);
    await expect.poll(() => storedChunks(partial), { timeout: 10_000 }).toEqual([]);
    expect(await storedChunks(sent)).toEqual(['0']);
    expect(await storedChunks(young)).toEqual(['0']);
    expect((await api.get(`/api/v1/attachments/blobs/${sent}`, alice.accessToken)).status).toBe(200);
    expect((await api.get(`/api/v1/attachments/blobs/${unsent}`, alice.accessToken)).status).toBe(404);
    expect((await sendWith(bob, alice, [unsent])).status).toBe(400);
  });
};

describe('encrypted attachments (embedded: files under DATA_DIR)', () => attachmentSuite(filesUnderDataDir));
describe('encrypted attachments (MinIO adapter against s3rver on loopback)', () =>
  attachmentSuite(s3OnLoopback));

describe('attachment uploads and the write budget (embedded)', () => {
  let veil: TestVeil;
  afterAll(() => veil?.destroy());

  it('spends the per-user write budget on every upload call: 429 with Retry-After, and the chunk is not stored', async () => {
    veil = await startTestVeil({ env: { WRITES_PER_USER_PER_MINUTE: '3' } });
    const api = createApi(veil.url);
    const [alice, bob] = await Promise.all([createUser(api, 'alice'), createUser(api, 'bob')]);
    const chatId = (await sendDirect(api, alice, bob, 'hi')).body.data.chat._id;
    const { blobId } = (
      await api.post('/api/v1/attachments/uploads', { chatId, size: 26 }, alice.accessToken)
    ).body.data;
    const chunk = (index: number) =>
      api.call('PUT', `/api/v1/attachments/uploads/${blobId}/chunks/${index}`, {
        token: alice.accessToken,
        raw: { body: new Uint8Array(26), contentType: 'application/octet-stream' },
      });
    expect((await chunk(0)).status).toBe(200);
    await veil.ports.blobs.deleteFolder(attachmentFolder(blobId));
    const refused = await chunk(0);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await veil.ports.blobs.list(attachmentFolder(blobId))).toEqual([]);
  });
});
