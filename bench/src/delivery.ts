import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { Pool } from 'undici';
import { buildGroupPayload, buildIndividualPayload } from '@veil/crypto';
import { registerBenchAccount } from './bench-account.ts';
import { RECEIVER_WORKERS, startReceivers, type Receivers } from './receivers.ts';
import type { ReceiverSpec } from './receiver-worker.ts';
import { connectSender } from './sender-socket.ts';
import { now, summarize } from './stats.ts';
import { LOOP_SAMPLE_MS, loopDelayMs, type GeneratorLoad } from './sweep.ts';

/**
 * Delivery: users in pairs and in groups of five; senders post real encrypted messages at a fixed
 * offered rate from the main thread; every recipient's socket, held by a worker thread
 * (receivers.ts), records what arrives. Latency is send start → arrival, both on a clock the
 * threads share; every message is accounted for (lost, duplicated). The same load runs against
 * Veil (socket or HTTP send, Socket.IO delivery) and against a bare relay (see relay.ts).
 */
export interface DeliveryOptions {
  users: number;
  /** Offered messages per second, all senders together. */
  rate: number;
  durationSeconds: number;
  /** Seconds of the same load before measuring, not counted. */
  warmupSeconds: number;
  groupSize: number;
  /** Worker threads holding the receiving sockets (default RECEIVER_WORKERS). */
  receiverWorkers?: number;
  /**
   * How Veil's senders send: `socket` (`send message` with an ack, as the web app does while
   * connected) or `http` (the HTTP POST calls). The relay always sends over its socket.
   */
  sendOver: SendPath;
}

export type SendPath = 'socket' | 'http';

/**
 * The server's CPU seconds so far, when it runs apart from the generator: `server` is every
 * process and thread of its own; `byProcess`, when given, splits it by process and adds the
 * servers it uses (NATS, Redis). `residentBytes`, when given, is the server's memory (VmRSS of
 * its processes) at the moment of probing.
 */
export type CpuProbe = () => Promise<{
  server: number;
  byProcess?: Record<string, number>;
  residentBytes?: number;
  /** The server's JS heap (used, total) and external memory, in MiB, where it reports them. */
  heap?: { usedMb: number; totalMb: number; externalMb: number };
}>;

export interface DeliveryResult {
  offeredRate: number;
  sent: number;
  expectedDeliveries: number;
  delivered: number;
  lost: number;
  duplicated: number;
  failedSends: number;
  deliveredPerSecond: number;
  latencyMs: ReturnType<typeof summarize>;
  /** Server CPU milliseconds per message sent, over the measured load and its drain (null: not probed). */
  serverCpuMsPerSend: number | null;
  /** The server's CPU over the same window in cores (1 = one core fully busy; null: not probed). */
  serverCpuCores: number | null;
  /** The server's resident memory in MiB once the load has drained (null: not probed). */
  serverRssMb: number | null;
  /** Its JS heap then, where the server reports it. */
  serverHeap: { usedMb: number; totalMb: number; externalMb: number } | null;
  /** CPU milliseconds per message sent of each process, when the probe splits them. */
  cpuMsPerSendByProcess: Record<string, number> | null;
  /** What the load generator itself spent over the same window (sweep.ts decides if it was the limit). */
  generator: GeneratorLoad;
}

/** What a target must offer: a receiving socket's spec, and sending one message to a conversation. */
export interface DeliveryTarget {
  receiverSpec(userIndex: number): ReceiverSpec;
  /** Resolves with the message id (null when the send failed). */
  send(conversation: number): Promise<string | null>;
  /** Recipients (user indexes) of a conversation. */
  recipients(conversation: number): number[];
  conversations: number;
  /** Closes the senders' connections; a target serves several runs until then. */
  close?(): void;
}

/** Runs `body` with a target and closes it afterwards, however the body ends. */
export const usingTarget = async <T>(
  target: DeliveryTarget,
  body: (target: DeliveryTarget) => Promise<T>,
): Promise<T> => {
  try {
    return await body(target);
  } finally {
    target.close?.();
  }
};

/** Sends at a fixed rate (open loop: a slow answer never delays the next send); resolves when all are answered. */
const offerLoad = async (target: DeliveryTarget, rate: number, seconds: number) => {
  const sends: Promise<void>[] = [];
  const sentAt = new Map<string, { at: number; conversation: number }>();
  let failedSends = 0;
  const total = Math.max(1, Math.round(rate * seconds));
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const conversation = i % target.conversations;
    const at = now();
    sends.push(
      target.send(conversation).then(
        (id) => (id ? void sentAt.set(id, { at, conversation }) : void failedSends++),
        () => void failedSends++,
      ),
    );
  }
  await Promise.all(sends);
  return { sentAt, failedSends };
};

export const runDelivery = async (
  target: DeliveryTarget,
  options: DeliveryOptions,
  cpuProbe?: CpuProbe,
): Promise<DeliveryResult> => {
  const arrivals = new Map<string, { at: number; by: number }[]>();
  const users = new Set(Array.from({ length: target.conversations }, (_, c) => target.recipients(c)).flat());
  let receivers: Receivers | undefined;
  try {
    receivers = await startReceivers(
      [...users].map((userIndex) => ({ userIndex, spec: target.receiverSpec(userIndex) })),
      options.receiverWorkers ?? RECEIVER_WORKERS,
      (batch) => {
        for (const { messageId, userIndex, at } of batch) {
          let list = arrivals.get(messageId);
          if (!list) arrivals.set(messageId, (list = []));
          list.push({ at, by: userIndex });
        }
      },
    );
    // A receiver worker that fails (a crash, a bad payload) fails the run instead of leaving it waiting.
    const { failed } = receivers;
    const sleep = (ms: number) => Promise.race([new Promise((r) => setTimeout(r, ms)), failed]);

    // Warm-up: the same load, not counted, so the figures describe a running server rather than
    // one whose code is still being compiled and whose clients are still opening connections.
    if (options.warmupSeconds > 0) {
      const warmup = await Promise.race([offerLoad(target, options.rate, options.warmupSeconds), failed]);
      const warmupDeadline = performance.now() + 10_000;
      while ([...warmup.sentAt.keys()].some((id) => !arrivals.has(id)) && performance.now() < warmupDeadline)
        await sleep(50);
    }

    const cpuAtStart = await cpuProbe?.();
    // The generator watches itself over the same window: its CPU (main thread, whole process)
    // and its event loops' delay, so a row it could not drive is known as such.
    receivers.measure();
    const mainLag = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
    mainLag.enable();
    const [mainCpuAtStart, processCpuAtStart] = [process.threadCpuUsage(), process.cpuUsage()];
    const started = performance.now();
    const { sentAt, failedSends } = await Promise.race([
      offerLoad(target, options.rate, options.durationSeconds),
      failed,
    ]);
    // The main thread only sends: its share of a core is taken over the sending, not the drain.
    const mainCpu = process.threadCpuUsage(mainCpuAtStart);
    const sendingMicros = (performance.now() - started) * 1000;

    // Drain: wait until everything sent has arrived everywhere, or a quiet period passes.
    // Workers report arrivals in batches, a few milliseconds late, which this polling absorbs.
    const expected = () =>
      [...sentAt.values()].reduce((n, s) => n + target.recipients(s.conversation).length, 0);
    const arrived = () =>
      [...sentAt.keys()].reduce((n, id) => n + new Set((arrivals.get(id) ?? []).map((a) => a.by)).size, 0);
    const drainDeadline = performance.now() + 10_000;
    while (arrived() < expected() && performance.now() < drainDeadline) await sleep(50);
    const finished = performance.now();
    const processCpu = process.cpuUsage(processCpuAtStart);
    mainLag.disable();
    const cpuAtEnd = await cpuProbe?.();
    const cpuSeconds = cpuAtStart && cpuAtEnd ? cpuAtEnd.server - cpuAtStart.server : null;
    // The workers' last batches are in `arrivals` once this resolves.
    const receiverLoad = await receivers.close();
    const generator: GeneratorLoad = {
      mainThreadCores: (mainCpu.user + mainCpu.system) / sendingMicros,
      processCores: (processCpu.user + processCpu.system) / ((finished - started) * 1000),
      mainLagP99Ms: mainLag.count ? loopDelayMs(mainLag.percentile(99)) : 0,
      receiverLagP99Ms: receiverLoad.lagP99Ms,
    };

    const latencies: number[] = [];
    let duplicated = 0;
    for (const [id, { at }] of sentAt) {
      const got = arrivals.get(id) ?? [];
      const byUser = new Map<number, number>();
      for (const arrival of got) {
        if (byUser.has(arrival.by)) duplicated++;
        else {
          byUser.set(arrival.by, arrival.at);
          latencies.push(arrival.at - at);
        }
      }
    }
    const expectedDeliveries = expected();
    return {
      offeredRate: options.rate,
      sent: sentAt.size,
      expectedDeliveries,
      delivered: latencies.length,
      lost: expectedDeliveries - latencies.length,
      duplicated,
      failedSends,
      deliveredPerSecond: latencies.length / ((finished - started) / 1000),
      latencyMs: summarize(latencies),
      serverCpuMsPerSend: cpuSeconds === null ? null : (cpuSeconds * 1000) / Math.max(1, sentAt.size),
      serverCpuCores: cpuSeconds === null ? null : cpuSeconds / ((finished - started) / 1000),
      serverRssMb: cpuAtEnd?.residentBytes === undefined ? null : cpuAtEnd.residentBytes / 1024 / 1024,
      serverHeap: cpuAtEnd?.heap ?? null,
      cpuMsPerSendByProcess: cpuAtEnd?.byProcess
        ? Object.fromEntries(
            Object.entries(cpuAtEnd.byProcess).map(([label, seconds]) => [
              label,
              ((seconds - (cpuAtStart?.byProcess?.[label] ?? 0)) * 1000) / Math.max(1, sentAt.size),
            ]),
          )
        : null,
      generator,
    };
  } finally {
    await receivers?.close().catch(() => undefined); // after a failure: the error above is the one to report
  }
};

/** Veil as a delivery target: real accounts, real keys, real encrypted payloads. */
export const veilTarget = async (
  veil: { url: string; socketUrls: string[] },
  options: DeliveryOptions,
): Promise<DeliveryTarget> => {
  const { url, socketUrls } = veil;
  const origin = url;
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely typed JSON from the API
    return { status: res.status, body: (await res.json()) as any };
  };
  const run = Date.now().toString(36);
  // Accounts are made a few at a time: each costs a deliberately slow password hash.
  const makeAccount = (i: number) => registerBenchAccount(url, `b${run}${i}`);
  const accounts: Awaited<ReturnType<typeof makeAccount>>[] = [];
  for (let i = 0; i < options.users; i += 4) {
    const batch = Array.from({ length: Math.min(4, options.users - i) }, (_, k) => makeAccount(i + k));
    accounts.push(...(await Promise.all(batch)));
  }

  // Half the users talk in pairs, the rest in groups. Each conversation's chat exists before the
  // load starts: a pair's first message over HTTP creates it (as "Say Hi" does in the app).
  const conversations: {
    sender: number;
    recipients: number[];
    http: { path: string; payload: unknown };
    socketPayload: { chatId: string };
  }[] = [];
  const pairUsers = Math.floor(options.users / 2 / 2) * 2;
  for (let i = 0; i + 1 < pairUsers; i += 2) {
    const [a, b] = [accounts[i]!, accounts[i + 1]!];
    const payload = await buildIndividualPayload('benchmark message', {
      recipientId: b.id,
      recipientKey: b.keys.publicKey,
      senderId: a.id,
      senderKey: a.keys.publicKey,
    });
    const path = `/api/v1/message/sendIndividualMessage/${b.id}`;
    const first = await post(path, payload, a.token);
    if (first.status !== 201) throw new Error(`first message failed: ${first.status}`);
    const chatId = first.body.data.chat._id as string;
    const keys = { [a.id]: a.keys.publicKey, [b.id]: b.keys.publicKey };
    conversations.push({
      sender: i,
      recipients: [i + 1],
      http: { path, payload },
      socketPayload: { chatId, ...(await buildGroupPayload('benchmark message', keys)) },
    });
  }
  for (let start = pairUsers; start + options.groupSize <= options.users; start += options.groupSize) {
    const members = Array.from({ length: options.groupSize }, (_, k) => start + k);
    const group = await post(
      '/api/v1/chat/creategroupchat',
      { groupName: `bench ${start}`, participants: members.slice(1).map((m) => accounts[m]!.id) },
      accounts[start]!.token,
    );
    const keys = Object.fromEntries(members.map((m) => [accounts[m]!.id, accounts[m]!.keys.publicKey]));
    const payload = await buildGroupPayload('benchmark group message', keys);
    const chatId = group.body.data._id as string;
    conversations.push({
      sender: start,
      recipients: members.slice(1),
      http: { path: `/api/v1/message/sendGroupMessage/${chatId}`, payload },
      socketPayload: { chatId, ...payload },
    });
  }

  // HTTP: each sender is a browser with its own keep-alive connections, at most six at once
  // (browsers' limit per host); an unbounded pool would open a connection per waiting request, a
  // storm no real client population makes. Socket: each sender is one tab's socket.
  const browsers = new Map<number, Pool>();
  const browserOf = (user: number) => {
    let pool = browsers.get(user);
    if (!pool) browsers.set(user, (pool = new Pool(url, { connections: 6 })));
    return pool;
  };
  const sockets = new Map<number, Socket>();
  if (options.sendOver === 'socket') {
    for (const { sender } of conversations) {
      const socketUrl = socketUrls[sender % socketUrls.length]!;
      sockets.set(sender, await connectSender(socketUrl, { token: accounts[sender]!.token }, origin));
    }
  }

  const sendOverHttp = async (conversation: (typeof conversations)[number]) => {
    const response = await browserOf(conversation.sender).request({
      path: conversation.http.path,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${accounts[conversation.sender]!.token}`,
      },
      body: JSON.stringify(conversation.http.payload),
    });
    const body = (await response.body.json()) as { data?: { message?: { _id: string } } };
    return response.statusCode === 201 ? (body.data?.message?._id ?? null) : null;
  };
  // Like the web app, every message carries its own idempotency key. A send whose ack never comes
  // (its socket was closed) fails after a while instead of holding the run open.
  let sends = 0;
  const sendOverSocket = (conversation: (typeof conversations)[number]) =>
    new Promise<string | null>((resolve) => {
      sockets
        .get(conversation.sender)!
        .timeout(30_000)
        .emit(
          'send message',
          {
            ...conversation.socketPayload,
            clientMessageId: `bench-${(sends++).toString(36).padStart(8, '0')}`,
          },
          (error: Error | null, reply: { ok: boolean; data?: { _id: string } }) =>
            resolve(!error && reply.ok ? (reply.data?._id ?? null) : null),
        );
    });

  return {
    conversations: conversations.length,
    recipients: (c) => conversations[c]!.recipients,
    send: (c) =>
      options.sendOver === 'socket' ? sendOverSocket(conversations[c]!) : sendOverHttp(conversations[c]!),
    receiverSpec: (user) => ({
      url: socketUrls[user % socketUrls.length]!,
      auth: { token: accounts[user]!.token },
      origin,
      event: 'message received', // payload { message: { _id, ... } }
      idPath: ['message', '_id'],
    }),
    close() {
      for (const pool of browsers.values()) void pool.close();
      for (const socket of sockets.values()) socket.close();
    },
  };
};
