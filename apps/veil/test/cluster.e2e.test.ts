import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGroupPayload, decryptMessage } from '@veil/crypto';
import { natsUrl, redisUrl, uniquePrefix } from '@veil/test-env';
import { createApi } from './support/api-client.ts';
import { ready, startCluster, type ClusterProcess } from './support/cluster-process.ts';
import { scrape } from './support/prometheus.ts';
import { allClusterPortOffsets, clusterPortOffsets } from '../src/cluster-ports.ts';
import { deleteRedisKeys, deleteStreams } from './support/cleanup.ts';
import { connectSocket } from './support/sockets.ts';
import { createUser, directMessage, type TestUser } from './support/users.ts';

/**
 * `npm run cluster` for real: seven OS processes on NATS and Redis, the gateway proxying sockets
 * to two realtime replicas. A message sent over HTTP reaches a socket connected through the
 * gateway; a request's trace id reaches the other processes' log lines over NATS; each process
 * serves its metrics; a service killed with kill -9 is started again; Ctrl-C (SIGINT) stops every
 * process cleanly.
 */
let cluster: ClusterProcess;
let base: number;
const prefix = uniquePrefix('c');

beforeAll(async () => {
  cluster = await startCluster({
    // Debug: the trace test reads the lines each process logs for an RPC call and a delivery.
    LOG_LEVEL: 'debug',
    LOG_FORMAT: 'json',
    VEIL_STREAM_PREFIX: prefix,
  });
  base = cluster.base;
}, 90_000);

afterAll(async () => {
  await cluster?.destroy();
  await deleteStreams(natsUrl(), prefix);
  await deleteRedisKeys(redisUrl(), prefix);
});

describe('npm run cluster', () => {
  it('serves the API and delivers over a socket proxied to a realtime replica', async () => {
    const url = `http://127.0.0.1:${base}`;
    const api = createApi(url);
    const alice = await createUser(api, 'ca');
    const bob = await createUser(api, 'cb');

    const socket = io(url, {
      transports: ['websocket'],
      auth: { token: bob.accessToken },
      extraHeaders: { origin: `http://127.0.0.1:${base}` },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const received = new Promise<{
      message: { content: string; iv: string; encryptedKeys: Record<string, string> };
    }>((resolve) => socket.once('message received', resolve));
    const payload = await directMessage(alice, bob, 'through the cluster');
    expect(
      (await api.post(`/api/v1/message/sendIndividualMessage/${bob._id}`, payload, alice.accessToken)).status,
    ).toBe(201);
    const { message } = await received;
    expect(await decryptMessage(message, bob._id, bob.keys.privateKey)).toBe('through the cluster');
    socket.close();
  });

  it("carries a request's trace id over NATS, and each process counts its part at /metrics", async () => {
    const url = `http://127.0.0.1:${base}`;
    const api = createApi(url);
    const [alice, bob] = [await createUser(api, 'ta'), await createUser(api, 'tb')];
    const socket = io(url, {
      transports: ['websocket'],
      auth: { token: bob.accessToken },
      extraHeaders: { origin: url },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const received = new Promise((resolve) => socket.once('message received', resolve));
    const traceId = 'a3ce929d0e0e47364bf92f3577b34da6';
    const sent = await api.call('POST', `/api/v1/message/sendIndividualMessage/${bob._id}`, {
      token: alice.accessToken,
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      json: await directMessage(alice, bob, 'traced through the cluster'),
    });
    expect(sent.status).toBe(201);
    await received;

    /** `<process> | <JSON line>` lines of the supervisor's output that carry the trace id. */
    const traced = () =>
      cluster
        .output()
        .split('\n')
        .filter((line) => line.includes(traceId))
        .map((line) => {
          const [name, json] = line.split(' | ', 2);
          return { name, ...(JSON.parse(json!) as { msg: string; traceId: string; operation?: string }) };
        });
    // Each process's lines reach the supervisor's output in their own time: wait for all of them.
    const seen = (name: string, msg: string, operation?: string) =>
      traced().some((l) => l.name === name && l.msg === msg && (!operation || l.operation === operation));
    await expect
      .poll(() => ({
        gateway: seen('gateway', 'request handled'),
        message: seen('message', 'rpc handled', 'send'),
        chat: seen('chat', 'rpc handled', 'ensureDirect'),
        realtime:
          seen('realtime-1', 'message event delivered') || seen('realtime-2', 'message event delivered'),
      }))
      .toEqual({ gateway: true, message: true, chat: true, realtime: true });

    const [gateway, message, ...replicas] = await Promise.all(
      [clusterPortOffsets.gateway, clusterPortOffsets.message, ...clusterPortOffsets.realtime].map((offset) =>
        scrape(`http://127.0.0.1:${base + offset}`),
      ),
    );
    const route = '/api/v1/message/sendIndividualMessage/:recipientId';
    expect(
      gateway!.value('veil_http_request_duration_seconds_count', { route, status: '201' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      gateway!.value('veil_rpc_client_duration_seconds_count', {
        service: 'message',
        operation: 'send',
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      message!.value('veil_jetstream_publish_duration_seconds_count', {
        context: 'message',
        outcome: 'stored',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      message!.value('veil_projection_lag_events', { projection: 'message_timeline', context: 'message' }),
    ).toBe(0);
    expect(message!.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    const sum = (name: string, labels?: Record<string, string>) =>
      replicas.reduce((total, replica) => total + (replica.value(name, labels) ?? 0), 0);
    expect(sum('veil_realtime_connected_sockets')).toBe(1);
    // Every replica follows the log and emits to its own sockets' rooms: both count the delivery.
    expect(sum('veil_realtime_deliveries_total', { event: 'message received' })).toBeGreaterThanOrEqual(2);
    socket.close();
  }, 30_000);

  it('stops delivering a group to a removed member at once, on both realtime replicas', async () => {
    const url = `http://127.0.0.1:${base}`;
    const api = createApi(url);
    const [alice, bob, carol] = [
      await createUser(api, 'ga'),
      await createUser(api, 'gb'),
      await createUser(api, 'gc'),
    ];
    const created = await api.post(
      '/api/v1/chat/creategroupchat',
      { groupName: 'two replicas', participants: [bob._id, carol._id] },
      alice.accessToken,
    );
    const chatId = created.body.data._id as string;
    // The gateway hands sockets to the replicas in turn: two each for Bob and Carol span both.
    const sockets = [
      await connectSocket(url, bob),
      await connectSocket(url, bob),
      await connectSocket(url, carol),
      await connectSocket(url, carol),
    ];
    const bobSockets = sockets.slice(0, 2);
    const received = sockets.map((socket) => {
      const ids: string[] = [];
      socket.on('message received', ({ message }) => void ids.push(message._id));
      return ids;
    });
    const updates = bobSockets.map((socket) => {
      let count = 0;
      socket.on('chat updated', () => void count++);
      return () => count;
    });
    const keys = (...users: TestUser[]) => Object.fromEntries(users.map((u) => [u._id, u.keys.publicKey]));
    const send = async (text: string, ...users: TestUser[]) =>
      (
        await api.post(
          `/api/v1/message/sendGroupMessage/${chatId}`,
          await buildGroupPayload(text, keys(...users)),
          alice.accessToken,
        )
      ).body.data.message._id as string;

    const before = await send('all three', alice, bob, carol);
    await expect.poll(() => received.every((ids) => ids.includes(before))).toBe(true);
    const removed = await api.call('DELETE', `/api/v1/chat/${chatId}/members/${bob._id}`, {
      token: alice.accessToken,
    });
    expect(removed.status).toBe(200);
    await expect.poll(() => updates.every((count) => count() > 0)).toBe(true);
    const after = await send('without bob', alice, carol);
    await expect.poll(() => received.slice(2).every((ids) => ids.includes(after))).toBe(true);
    expect(received.slice(0, 2)).toEqual([[before], [before]]);
    for (const socket of sockets) socket.close();
  });

  it('starts a service again when it dies, and it serves again', async () => {
    const pid = cluster.pidOf('message');
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await expect
      .poll(() => cluster.output(), { timeout: 10_000 })
      .toContain('message | exited (SIGKILL); restarting in 1 s');
    await expect
      .poll(() => ready(base + clusterPortOffsets.message), { timeout: 30_000, interval: 250 })
      .toBe(true);
    expect(cluster.output()).toMatch(/^message \| started \(pid (?!${pid}\))\d+\)$/m);

    const api = createApi(`http://127.0.0.1:${base}`);
    const [alice, bob] = [await createUser(api, 'ra'), await createUser(api, 'rb')];
    const payload = await directMessage(alice, bob, 'after a restart');
    expect(
      (await api.post(`/api/v1/message/sendIndividualMessage/${bob._id}`, payload, alice.accessToken)).status,
    ).toBe(201);
  }, 60_000);

  it('stops every process on SIGINT', async () => {
    const exited = new Promise<number | null>((resolve) =>
      cluster.child.once('exit', (code) => resolve(code)),
    );
    cluster.child.kill('SIGINT');
    expect(await exited, cluster.output()).toBe(0);
    const ports = allClusterPortOffsets.map((offset) => base + offset);
    expect(await Promise.all(ports.map(ready))).toEqual(ports.map(() => false));
  }, 30_000);
});
