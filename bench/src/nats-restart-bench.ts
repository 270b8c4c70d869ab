import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { buildIndividualPayload } from '@veil/crypto';
import { startRedisServer, startRestartableNats } from '@veil/test-env';
import { registerBenchAccount } from './bench-account.ts';
import { percentile, round } from './stats.ts';
import { startVeilCluster, type VeilProcess } from './veil-process.ts';

/**
 * NATS killed (kill -9) under a send load and started again on the same store, under `npm run
 * cluster` with a NATS and a Redis of this run's own. A sender posts to one recipient every 50 ms,
 * retrying each message with its clientMessageId until acknowledged; the recipient's socket is on
 * a realtime replica. Reported, counted from the moment NATS listens again:
 *  - freshMs: until a message sent after that moment reaches the recipient (delivery is fresh again);
 *  - newChatMs: until the first message of a new chat is acknowledged;
 *  - pushP99Ms: p99 of acknowledgement → arrival for messages acknowledged in the 5 s after it;
 * and over the whole round, messages acknowledged but never delivered, and messages delivered
 * more than once. "Listens again" is when nats-server says it is ready.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms`);
    await sleep(10);
  }
};

export interface NatsRestartRound {
  acknowledged: number;
  freshMs: number;
  newChatMs: number;
  pushP99Ms: number;
  longestAckWaitMs: number;
  lost: number;
  duplicated: number;
}

const oneRound = async (port: number): Promise<NatsRestartRound> => {
  const nats = await startRestartableNats();
  const redis = await startRedisServer('redis-server').catch(async (error: unknown) => {
    await nats.stop();
    throw error;
  });
  let cluster: VeilProcess | undefined;
  let socket: Socket | undefined;
  try {
    const veil = (cluster = await startVeilCluster(port, { natsUrl: nats.url, redisUrl: redis.url }));
    const run = Date.now().toString(36);
    const [alice, bob, carol] = await Promise.all(
      ['a', 'b', 'c'].map((name) => registerBenchAccount(veil.url, `nr${run}${name}`)),
    );
    const post = async (recipient: typeof bob, payload: unknown) => {
      const res = await fetch(`${veil.url}/api/v1/message/sendIndividualMessage/${recipient!.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${alice!.token}` },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      if (res?.status !== 201) return null;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely typed JSON from the API
      return ((await res.json()) as any).data.message._id as string;
    };
    const payloadFor = (recipient: typeof bob) =>
      buildIndividualPayload('benchmark message', {
        recipientId: recipient!.id,
        recipientKey: recipient!.keys.publicKey,
        senderId: alice!.id,
        senderKey: alice!.keys.publicKey,
      });
    const toBob = await payloadFor(bob);
    const toCarol = await payloadFor(carol);

    const arrivals = new Map<string, number[]>();
    socket = io(veil.socketUrls[0]!, {
      transports: ['websocket'],
      auth: { token: bob!.token },
      extraHeaders: { origin: veil.url },
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
    });
    socket.on('message received', ({ message }: { message: { _id: string } }) =>
      arrivals.set(message._id, [...(arrivals.get(message._id) ?? []), performance.now()]),
    );
    await until('the recipient connected', () => socket!.connected);

    const sent: { id: string; firstTry: number; acked: number }[] = [];
    let longestAckWaitMs = 0;
    let sending = true;
    const load = (async () => {
      while (sending) {
        const clientMessageId = randomUUID();
        const firstTry = performance.now();
        for (;;) {
          const id = await post(bob, { ...toBob, clientMessageId });
          if (id) {
            const acked = performance.now();
            longestAckWaitMs = Math.max(longestAckWaitMs, acked - firstTry);
            sent.push({ id, firstTry, acked });
            break;
          }
          await sleep(50);
        }
        await sleep(50);
      }
    })();
    await until('the first deliveries', () => sent.length >= 5 && arrivals.has(sent[0]!.id));

    await nats.kill();
    await sleep(2_000);
    await nats.start();
    const listening = performance.now();

    let newChatAt = 0;
    const newChat = (async () => {
      const clientMessageId = randomUUID();
      while (!(await post(carol, { ...toCarol, clientMessageId }))) await sleep(50);
      newChatAt = performance.now();
    })();
    await until('a fresh delivery', () =>
      sent.some(({ id, firstTry }) => firstTry >= listening && arrivals.has(id)),
    );
    await sleep(5_000);
    sending = false;
    await Promise.all([load, newChat]);
    await until(
      'every acknowledged message delivered',
      () => sent.every(({ id }) => arrivals.has(id)),
      15_000,
    ).catch(() => undefined);

    const fresh = sent
      .filter(({ id, firstTry }) => firstTry >= listening && arrivals.has(id))
      .map(({ id }) => arrivals.get(id)![0]!)
      .sort((a, b) => a - b)[0]!;
    const push = sent
      .filter(({ id, acked }) => acked >= listening && acked < listening + 5_000 && arrivals.has(id))
      .map(({ id, acked }) => arrivals.get(id)![0]! - acked)
      .sort((a, b) => a - b);
    return {
      acknowledged: sent.length,
      freshMs: round(fresh - listening),
      newChatMs: round(newChatAt - listening),
      pushP99Ms: round(percentile(push, 99)),
      longestAckWaitMs: round(longestAckWaitMs),
      lost: sent.filter(({ id }) => !arrivals.has(id)).length,
      duplicated: [...arrivals.values()].filter((times) => times.length > 1).length,
    };
  } finally {
    socket?.close();
    await cluster?.stop();
    await nats.stop();
    await redis.stop();
  }
};

/** `rounds` rounds, each on a fresh cluster, NATS and Redis. */
export const runNatsRestartBench = async (rounds: number, port: number) => {
  const results: NatsRestartRound[] = [];
  for (let i = 0; i < rounds; i++) results.push(await oneRound(port));
  return results;
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runNatsRestartBench(Number(process.argv[2] ?? 1), Number(process.argv[3] ?? 19100)).then(
    (results) => {
      console.table(results);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
