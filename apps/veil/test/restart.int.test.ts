import { readdir, rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, MessageView, ServerToClientEvents } from '@veil/contracts';
import { buildIndividualPayload, decryptMessage } from '@veil/crypto';
import { io, type Socket } from 'socket.io-client';
import { createApi, type Api } from './support/api-client.ts';
import { startTestVeil } from './support/test-veil.ts';
import { createUser, registerForm, sendDirect, uniqueName, type TestUser } from './support/users.ts';
import { caughtUp, failingStart, rebuild, spawnVeil, type VeilProcess } from './support/veil-process.ts';

/**
 * The embedded app as an operator runs it, one OS process at a time on one DATA_DIR: read
 * models live in the event log's file, DATA_DIR/events/event-log.sqlite, stored in the commits
 * that append their events, so a restart finds them at the log's head (each projection logs how
 * many events it applied at start: none, after a clean stop or a crash), a data dir of an
 * earlier layout builds them from the event log, and `npm run rebuild` builds them again.
 */
const projections = [
  'user_directory',
  'auth_credentials',
  'chat_list',
  'message_timeline',
  'message_read_points',
  'message_push',
  'message_reports',
];

let dataDir: string;
/** The embedded log's file, which holds the read models too. */
const logFile = () => path.join(dataDir, 'events', 'event-log.sqlite');
const running: VeilProcess[] = [];
afterEach(async () => {
  for (const veil of running.splice(0)) await veil.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** Starts Veil and waits for each projection's "caught up" line (logs are written asynchronously). */
const start = async () => {
  const veil = await spawnVeil(dataDir);
  running.push(veil);
  await expect.poll(() => Object.keys(caughtUp(veil.logs)).sort()).toEqual([...projections].sort());
  return veil;
};
const stop = async (veil: VeilProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
  running.splice(running.indexOf(veil), 1);
  return veil.stop(signal);
};

/** What a person sees of their data: login, chats, a history decrypted, the directory. */
const readsOf = async (api: Api, user: TestUser, chatId: string, search: string) => {
  const login = await api.post('/api/v1/user/login', { username: user.username, password: user.password });
  expect(login.status).toBe(200);
  const token = login.body.data.user.accesstoken as string;
  const chats = (await api.get('/api/v1/chat/getallchats', token)).body.data;
  const history = (await api.get(`/api/v1/chat/getallmessages/${chatId}?limit=200`, token)).body.data;
  const texts = await Promise.all(
    history.messages.map((m: MessageView) => decryptMessage(m, user._id, user.keys.privateKey)),
  );
  const found = (await api.get(`/api/v1/user/searchuser?username=${search}`)).body.data;
  return { chats, texts, seen: history.messages.map((m: MessageView) => m.seenBy), found, token };
};

const send = async (api: Api, from: TestUser, to: TestUser, text: string) => {
  const payload = await buildIndividualPayload(text, {
    recipientId: to._id,
    recipientKey: to.keys.publicKey,
    senderId: from._id,
    senderKey: from.keys.publicKey,
  });
  const sent = await api.post(`/api/v1/message/sendIndividualMessage/${to._id}`, payload, from.accessToken);
  expect(sent.status).toBe(201);
  return sent.body.data as { message: MessageView; chat: { _id: string } };
};

/** Users, a renamed user, a chat of `messages` messages: data in every read model. */
const writeData = async (api: Api, messages: number) => {
  const alice = await createUser(api, 'ra');
  const bob = await createUser(api, 'rb');
  const renamed = uniqueName('renamed');
  const rename = await api.call('PUT', '/api/v1/user/updateProfile', {
    token: alice.accessToken,
    form: registerForm({ username: renamed }),
  });
  expect(rename.status).toBe(200);
  alice.username = renamed;
  let chatId = '';
  for (let i = 0; i < messages; i++)
    chatId = (await send(api, i % 2 ? bob : alice, i % 2 ? alice : bob, `m${i}`)).chat._id;
  return { alice, bob, chatId };
};

describe('the embedded app across restarts', () => {
  it('resumes its read models after a stop and after a crash: the reads are right and nothing is replayed', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-restart-'));
    let veil = await start();
    let api = createApi(veil.url);
    const { alice, bob, chatId } = await writeData(api, 40);
    const before = await readsOf(api, bob, chatId, 'renamed');
    expect(before.texts).toHaveLength(40);
    expect(before.found.map((u: { _id: string }) => u._id)).toContain(alice._id);
    expect(await stop(veil)).toBe(0);

    veil = await start();
    api = createApi(veil.url);
    // Every projection found its read model at the log's head.
    expect(caughtUp(veil.logs)).toEqual(Object.fromEntries(projections.map((name) => [name, 0])));
    const after = await readsOf(api, bob, chatId, 'renamed');
    expect({ ...after, token: '' }).toEqual({ ...before, token: '' });

    // Live state rebuilt in memory at start (the realtime gateway's membership, its fan-out) works too.
    bob.accessToken = after.token;
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(veil.url, {
      transports: ['websocket'],
      auth: { token: bob.accessToken },
      extraHeaders: { origin: veil.url },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const delivered = new Promise<MessageView>((resolve) =>
        socket.on('message received', ({ message }) => resolve(message)),
      );
      const sent = await send(api, alice, bob, 'after the restart');
      expect((await delivered)._id).toBe(sent.message._id);
    } finally {
      socket.disconnect();
    }

    // A crash right after a send was acknowledged: the message is in the log, so it is read back once.
    await send(api, alice, bob, 'just before the crash');
    expect(await stop(veil, 'SIGKILL')).toBeNull();
    veil = await start();
    api = createApi(veil.url);
    // The read models were stored in the commits of their events: nothing to apply again.
    expect(caughtUp(veil.logs)).toEqual(Object.fromEntries(projections.map((name) => [name, 0])));
    const crashed = await readsOf(api, bob, chatId, 'renamed');
    expect(crashed.texts).toEqual([...before.texts, 'after the restart', 'just before the crash']);
  });

  it('keeps every message acknowledged before a kill -9 in the middle of a send burst, each exactly once', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-burst-'));
    let veil = await start();
    let api = createApi(veil.url);
    const alice = await createUser(api, 'ka');
    const bob = await createUser(api, 'kb');
    const { chat } = await send(api, alice, bob, 'before the burst');
    const acknowledged = ['before the burst'];
    const attempted = new Set(acknowledged);
    // Eight senders, each sending as soon as its last send was answered, until the process dies.
    const sender = async (id: number) => {
      for (let n = 0; ; n++) {
        const text = `burst ${id}-${n}`;
        attempted.add(text);
        const sent = await sendDirect(api, n % 2 ? bob : alice, n % 2 ? alice : bob, text).catch(() => null);
        if (sent?.status !== 201) return;
        acknowledged.push(text);
      }
    };
    const senders = Promise.all(Array.from({ length: 8 }, (_, id) => sender(id)));
    await expect.poll(() => acknowledged.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(40);
    expect(await stop(veil, 'SIGKILL')).toBeNull();
    await senders;

    veil = await start();
    api = createApi(veil.url);
    const { texts } = await readsOf(api, bob, chat._id, 'kb');
    // Each acknowledged message once; a send cut off by the crash at most once; nothing else.
    for (const text of acknowledged) expect(texts.filter((t: string) => t === text)).toEqual([text]);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) expect(attempted).toContain(text);
  });

  it("starts on a data dir of an earlier layout (read models in a file of their own), building them into the log's file", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-upgrade-'));
    let veil = await start();
    let api = createApi(veil.url);
    const { bob, chatId } = await writeData(api, 12);
    const before = await readsOf(api, bob, chatId, 'renamed');
    expect(await stop(veil)).toBe(0);
    // What earlier versions kept: the event log alone in its file, the read models beside it.
    const log = new DatabaseSync(logFile());
    const tables = log
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name != 'events'")
      .all();
    for (const { name } of tables) log.exec(`DROP TABLE "${String(name)}"`);
    log.close();
    const earlier = new DatabaseSync(path.join(dataDir, 'read-models.sqlite'));
    earlier.exec('CREATE TABLE stale (id TEXT); PRAGMA user_version = 1');
    earlier.close();

    veil = await start();
    api = createApi(veil.url);
    const building = veil.logs.filter((line) => line.msg === 'building the read model from the event log');
    // Every projection with events to build from (no report was filed: that one has none).
    const withEvents = projections.filter((name) => name !== 'message_reports');
    expect(building.map((line) => line.projection).sort()).toEqual([...withEvents].sort());
    for (const line of building) expect(line.events).toBeGreaterThan(0);
    const applied = caughtUp(veil.logs);
    for (const line of building) expect(applied[line.projection as string]).toBe(line.events);
    expect((await readdir(dataDir)).filter((file) => file.startsWith('read-models.sqlite'))).toEqual([]);
    const after = await readsOf(api, bob, chatId, 'renamed');
    expect({ ...after, token: '' }).toEqual({ ...before, token: '' });
  });

  it("reads the same history from the log's indexes on a data dir whose timeline was a table, and drops the table", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-timeline-table-'));
    let veil = await start();
    let api = createApi(veil.url);
    const { bob, chatId } = await writeData(api, 12);
    const before = await readsOf(api, bob, chatId, 'renamed');
    expect(await stop(veil)).toBe(0);
    // What the version before kept: the timeline as a table of its own (ciphertext a second
    // time, with its key tables), and the log without the indexes over it.
    const log = new DatabaseSync(logFile());
    const indexes = log
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'events_message_by_%'")
      .all() as { name: string }[];
    expect(indexes).toHaveLength(3);
    for (const { name } of indexes) log.exec(`DROP INDEX "${name}"`);
    log.exec(`CREATE TABLE message_timeline (id NOT NULL PRIMARY KEY, doc TEXT NOT NULL);
      CREATE TABLE "message_timeline#0" (rid INTEGER NOT NULL, k1, k2);
      INSERT INTO _veil_indexes (collection, spec, key_table) VALUES
        ('message_timeline', '{"fields":["chat","seq"],"unique":false}', 'message_timeline#0');
      INSERT INTO message_timeline VALUES ('old', '{"_id":"old","content":"kept by the table"}');`);
    log.close();

    veil = await start();
    api = createApi(veil.url);
    const indexed = veil.logs.filter((line) => line.msg === 'indexing the event log');
    expect(indexed.map((line) => line.index).sort()).toEqual(indexes.map(({ name }) => name).sort());
    // Nothing to build again: the timeline is the log, and every other read model was at its head.
    expect(caughtUp(veil.logs)).toEqual(Object.fromEntries(projections.map((name) => [name, 0])));
    const after = await readsOf(api, bob, chatId, 'renamed');
    expect({ ...after, token: '' }).toEqual({ ...before, token: '' });
    expect(await stop(veil)).toBe(0);

    const file = new DatabaseSync(logFile(), { readOnly: true });
    try {
      const left = file.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'message_timeline%'").all();
      expect(left).toEqual([]);
      expect(file.prepare("SELECT * FROM _veil_indexes WHERE collection = 'message_timeline'").all()).toEqual(
        [],
      );
    } finally {
      file.close();
    }
  });

  it("builds the read models again in the log's file with npm run rebuild, to the same reads", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-rebuild-'));
    let veil = await start();
    let api = createApi(veil.url);
    const { bob, chatId } = await writeData(api, 5);
    const before = await readsOf(api, bob, chatId, 'renamed');
    expect(await stop(veil)).toBe(0);
    // Read models gone wrong: a chat that lost its members, so its history is refused.
    const log = new DatabaseSync(logFile());
    log.exec('DELETE FROM message_memberships');
    log.close();

    const rebuilt = await rebuild(dataDir);
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    // Not a terminal: one plain line per service when done.
    for (const service of ['user', 'auth', 'chat', 'message']) {
      expect(rebuilt.stdout).toMatch(new RegExp(`^${service} \\(\\w+\\): [\\d,]+ events in [\\d.]+ s$`, 'm'));
    }

    veil = await start();
    api = createApi(veil.url);
    expect(caughtUp(veil.logs)).toEqual(Object.fromEntries(projections.map((name) => [name, 0])));
    const after = await readsOf(api, bob, chatId, 'renamed');
    expect({ ...after, token: '' }).toEqual({ ...before, token: '' });
  });

  it('stops on a damaged data file, naming it and the way out', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-damaged-'));
    const veil = await start();
    await writeData(createApi(veil.url), 2);
    expect(await stop(veil)).toBe(0);

    await writeFile(logFile(), 'these bytes are not a database\n'.repeat(200));
    const failed = await failingStart(dataDir);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`The event log ${logFile()} is damaged`);
    expect(failed.stderr).toContain('.recover');
  });

  it('refuses a second process on the same data, and a rebuild beside a running Veil', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-refusals-'));
    const first = await startTestVeil({}, dataDir);
    const api = createApi(first.url);
    const { bob, chatId } = await writeData(api, 3);
    const before = await readsOf(api, bob, chatId, 'renamed');

    await expect(startTestVeil({}, dataDir)).rejects.toThrow(
      /event-log\.sqlite is in use by another Veil process/,
    );
    const refused = await rebuild(dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/in use by another Veil process/);
    await first.stop();

    const again = await startTestVeil({}, dataDir);
    try {
      const after = await readsOf(createApi(again.url), bob, chatId, 'renamed');
      expect({ ...after, token: '' }).toEqual({ ...before, token: '' });
    } finally {
      await again.stop();
    }
  });
});
