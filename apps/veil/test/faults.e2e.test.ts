import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, natsUrl, uniquePrefix } from '@veil/test-env';
import { deleteStreams } from './support/cleanup.ts';
import { createApi, type Api } from './support/api-client.ts';
import { startCluster, type ClusterProcess } from './support/cluster-process.ts';
import { createUser, directMessage, type TestUser } from './support/users.ts';

/**
 * Faults under a steady send load, on `npm run cluster` (seven processes, two realtime replicas
 * behind the gateway) with a Redis of this test's own: kill -9 of a realtime replica and of the
 * message service, a replica frozen for 30 s (SIGSTOP), and Redis killed and started again. The sender
 * retries each message with its clientMessageId until it is acknowledged, as the web app does.
 * Afterwards every acknowledged message is in the history exactly once, and after each fault a
 * message sent is delivered to the connected recipient again (within 60 s, or the test fails). How
 * long that took is printed, not asserted: speed belongs to the benchmarks, and
 * docs/benchmarks/faults.md keeps the times.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms`);
    await sleep(100);
  }
  return Date.now() - started;
};

describe('faults under a send load (cluster mode)', () => {
  let base: number;
  let redisPort: number;
  let redis: ChildProcess;
  let cluster: ClusterProcess;
  const prefix = uniquePrefix('f');
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let bobSocket: Socket;
  const delivered = new Map<string, number>();
  const acknowledged: string[] = [];
  let sending = true;
  let load: Promise<void>;
  let longestAckMs = 0;

  const startRedis = async () => {
    redis = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(redisPort), '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await until('redis-server listening', () => portOpen(redisPort));
  };

  /** Sends one message until it is acknowledged, with one key across attempts. */
  const sendUntilAcknowledged = async (text: string) => {
    const clientMessageId = randomUUID();
    const started = Date.now();
    const payload = {
      ...(await directMessage(alice, bob, text)),
      clientMessageId,
    };
    for (;;) {
      const res = await api
        .post(`/api/v1/message/sendIndividualMessage/${bob._id}`, payload, alice.accessToken)
        .catch(() => undefined);
      if (res?.status === 201) {
        longestAckMs = Math.max(longestAckMs, Date.now() - started);
        return res.body.data.message._id as string;
      }
      await sleep(200);
    }
  };

  /**
   * How long until messages reach bob's socket again: probes are sent one after another until
   * one arrives. A probe sent while bob reconnects is stored but not pushed to him (the web app
   * reads those from the history when it reconnects); the history check at the end covers them.
   */
  const deliveryResumes = async () => {
    const started = Date.now();
    for (;;) {
      const id = await sendUntilAcknowledged(`probe ${Date.now()}`);
      acknowledged.push(id);
      const arrived = await until('a delivery to bob', () => delivered.has(id), 2_000).then(
        () => true,
        () => false,
      );
      if (arrived) return Date.now() - started;
      if (Date.now() - started > 60_000) throw new Error('no delivery to bob within 60 s');
    }
  };

  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    cluster = await startCluster({
      LOG_LEVEL: 'warn',
      NATS_URL: natsUrl(),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      VEIL_STREAM_PREFIX: prefix,
    });
    base = cluster.base;

    api = createApi(`http://127.0.0.1:${base}`);
    [alice, bob] = [await createUser(api, 'fa'), await createUser(api, 'fb')];
    bobSocket = io(`http://127.0.0.1:${base}`, {
      transports: ['websocket'],
      auth: { token: bob.accessToken },
      extraHeaders: { origin: `http://127.0.0.1:${base}` },
      reconnectionDelay: 500,
      reconnectionDelayMax: 2_000,
    });
    bobSocket.on('message received', ({ message }: { message: { _id: string } }) =>
      delivered.set(message._id, (delivered.get(message._id) ?? 0) + 1),
    );
    await until('bob connected', () => bobSocket.connected);
    load = (async () => {
      for (let n = 0; sending; n++) {
        acknowledged.push(await sendUntilAcknowledged(`load ${n}`));
        await sleep(50);
      }
    })();
  }, 120_000);

  afterAll(async () => {
    sending = false;
    bobSocket?.close();
    cluster?.child.kill('SIGINT');
    await sleep(1_000);
    await cluster?.destroy();
    redis?.kill('SIGKILL');
    await deleteStreams(natsUrl(), prefix);
  });

  it('loses and doubles nothing, and delivers again after each fault', async () => {
    const times: Record<string, number> = {};
    await deliveryResumes();

    process.kill(cluster.pidOf('realtime-1'), 'SIGKILL');
    times['kill -9 of a realtime replica'] = await deliveryResumes();

    process.kill(cluster.pidOf('message'), 'SIGKILL');
    times['kill -9 of the message service'] = await deliveryResumes();

    // Frozen for 30 s: its clients move to the live replica long before it thaws, and when it
    // does, the messages it missed are not delivered twice nor lost.
    const frozen = cluster.pidOf('realtime-2');
    const frozenAt = Date.now();
    process.kill(frozen, 'SIGSTOP');
    times['a realtime replica frozen (SIGSTOP 30 s)'] = await deliveryResumes();
    await sleep(Math.max(0, 30_000 - (Date.now() - frozenAt)));
    process.kill(frozen, 'SIGCONT');

    redis.kill('SIGKILL');
    await new Promise((resolve) => redis.once('exit', resolve));
    await startRedis();
    times['Redis killed and started again'] = await deliveryResumes();

    sending = false;
    await load;
    const stored: string[] = [];
    for (let after = 0, hasMore = true; hasMore;) {
      const page = await api.get(
        `/api/v1/chat/getallmessages/${(await api.get('/api/v1/chat/getallchats', bob.accessToken)).body.data[0]._id}?after=${after}&limit=100`,
        bob.accessToken,
      );
      const messages = page.body.data.messages as { _id: string; seq: number }[];
      stored.push(...messages.map((m) => m._id));
      hasMore = page.body.data.hasMore && messages.length > 0;
      after = messages.at(-1)?.seq ?? after;
    }
    console.log(
      `faults (cluster mode, ${acknowledged.length} messages acknowledged, longest wait for an ack ${longestAckMs} ms): ` +
        Object.entries(times)
          .map(([fault, ms]) => `${fault}: delivering again after ${ms} ms`)
          .join('; '),
    );
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored).toEqual(expect.arrayContaining(acknowledged));
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
    // No message reached bob's socket twice, the thawed replica included.
    expect([...delivered.values()].filter((count) => count > 1)).toEqual([]);
    // Delivery resumed after every fault (deliveryResumes throws when it does not).
    expect(Object.keys(times)).toHaveLength(4);
  }, 300_000);
});
