import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runConnectionsBench } from './connections-bench.ts';
import { runCryptoBench } from './crypto-bench.ts';
import { runChatListBench } from './chat-list-bench.ts';
import { runSearchBench } from './search-bench.ts';
import { runKeyBackupBench } from './key-backup-bench.ts';
import { runSignatureBench } from './signature-bench.ts';
import { runGroupIntegrityBench } from './group-integrity-bench.ts';
import { runKeyLogBench } from './key-log-bench.ts';
import { runLoginBench } from './login-bench.ts';
import { runLinkBench } from './link-bench.ts';
import { runCallSetupBench } from './call-setup-bench.ts';
import { runTimelineIndexBench } from './timeline-index-bench.ts';
import {
  runDelivery,
  usingTarget,
  veilTarget,
  type CpuProbe,
  type DeliveryOptions,
  type DeliveryResult,
  type DeliveryTarget,
  type SendPath,
} from './delivery.ts';
import { ejabberdTarget, ejabberdUnavailable, startEjabberd } from './ejabberd.ts';
import { RECEIVER_WORKERS } from './receivers.ts';
import { relayTarget, startRelay } from './relay.ts';
import { runNatsRestartBench } from './nats-restart-bench.ts';
import { runReplayBench } from './replay-bench.ts';
import { runLogAppendBench } from './log-append-bench.ts';
import { runChangesBench } from './changes-bench.ts';
import { runDirectoryBench } from './directory-bench.ts';
import { medianDelivery, sweepCapacity, type CapacityResult, type DeliverySummary } from './capacity.ts';
import { GENERATOR_LIMITS, parseCapacityRates } from './sweep.ts';
import { cpuSecondsByProcess, cpuSecondsOf, residentBytesOf } from './process-cpu.ts';
import { round } from './stats.ts';
import { prepareHistory } from './stored-history.ts';
import { startVeilCluster, startVeilProcess, type VeilProcess } from './veil-process.ts';

/**
 * `npm run bench [-- --quick]`: delivery (Veil beside a durable and a bare Socket.IO relay), client
 * crypto, registrations and logins per second (`--logins <accounts>`, 0 skips it), the key backup
 * in Chromium (`--key-backup <rounds>`, 0 skips it), sender signatures in Chromium (`--signatures
 * <rounds>`, 0 skips it), a 1,000-change group chain and length padding in Chromium
 * (`--group-integrity <rounds>`, 0 skips it), key-log checks in Chromium (`--key-logs <rounds>`: a
 * 1,000-entry log, a 500-contact chat list, the cost per send; 0 skips it), linking a browser in
 * Chromium (`--link
 * <rounds>`, 0 skips it), one-to-one call set-ups in Chromium (`--call-setup <calls>`, 0 skips it;
 * needs the built client), the message timeline read from the log through its indexes
 * (`--timeline <messages>`, 0 skips it), the chat list of a user with many chats in Chromium (`--chat-list
 * <chats>`, 0 skips it; needs the built client), NATS killed and started again under a cluster
 * (`--nats-restart <rounds>`, 0 skips it), and read-model replay; prints a table and writes
 * bench-results/<time>.json. Machines here are shared and noisy, so each delivery run is
 * repeated and medians are reported. `--quick` is a tiny run that CI uses to keep the harness
 * working (accounting only, no timing claims). The load generator sends from its main thread and
 * holds the receiving sockets in worker threads (`--receiver-workers`, default 2), so arrivals
 * are not timed behind its own sending.
 * `--ejabberd` adds Debian's ejabberd as a peer (XMPP over WebSocket, one-to-one pairs; skipped
 * with the reason where it is not installed). `--capacity <rates | start:factor:ceiling | auto>`
 * sweeps each target's capacity at `--budget-ms` (p99, default 50) until it fails; every row
 * reports the generator's own CPU and loop delay, and a row it limited ends the sweep (sweep.ts).
 */
export interface BenchOptions {
  quick: boolean;
  users: number;
  rate: number;
  durationSeconds: number;
  warmupSeconds: number;
  repeats: number;
  /** Worker threads holding the load generator's receiving sockets (default RECEIVER_WORKERS). */
  receiverWorkers?: number;
  modes: DeliveryMode[];
  /** How Veil's senders send (see DeliveryOptions.sendOver). */
  sendOver: SendPath;
  /** Offered rates for the capacity sweep (empty: no sweep), and its p99 budget. */
  capacityRates: number[];
  budgetMs: number;
  replayEvents: number[];
  /** Concurrent appenders for the embedded log's append bench (empty: skipped), 8 s each. */
  logAppendConcurrency: number[];
  directoryUsers: number[];
  connectionSteps: number[];
  /** Operations of each kind in the message-changes part (0: skipped). */
  changes: number;
  /** Rounds of the key-backup benchmark in Chromium (0 or absent: skipped). */
  keyBackupRepeats?: number;
  /** Rounds of the sender-signature benchmark in Chromium (0 or absent: skipped). */
  signatureRounds?: number;
  /** Rounds of the group-chain and length-padding benchmark in Chromium (0 or absent: skipped). */
  groupIntegrityRounds?: number;
  /** Rounds of the key-log benchmark in Chromium (0 or absent: skipped). */
  keyLogRounds?: number;
  /** Chats of the reader in the chat-list benchmark in Chromium (0 or absent: skipped). */
  chatListChats?: number;
  /** Accounts the login benchmark registers and logs in (0 or absent: skipped). */
  loginAccounts?: number;
  /** Rounds of the browser-link benchmark in Chromium (0 or absent: skipped). */
  linkRepeats?: number;
  /** One-to-one calls set up in Chromium (0 or absent: skipped; needs the built client). */
  callSetups?: number;
  /** Stored messages for the timeline read from the log through its indexes (0 or absent: skipped). */
  timelineMessages?: number;
  /** Messages in the message-search benchmark in Chromium (0 or absent: skipped). */
  searchMessages?: number;
  /** ejabberd beside the relays, where it is installed (skipped with the reason otherwise). */
  ejabberd?: boolean;
  /** Messages already stored when the embedded Veil starts for the delivery runs (0 or absent: none). */
  storedMessages?: number;
  /** Rounds of NATS killed and started again under a cluster (0 or absent: skipped). */
  natsRestartRounds?: number;
  port: number;
}

/** Where a delivery run sends its load. */
export type DeliveryMode = 'embedded' | 'cluster';

/** Every target a run measures: Veil in the chosen modes, the two relays beside it, and ejabberd when asked. */
type Target = DeliveryMode | 'relay' | 'durableRelay' | 'ejabberd';

/** The JS heap of a Veil process as its /metrics says (prom-client's Node.js gauges), in MiB. */
const heapOf = async (url: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) =>
    round(Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024, 0);
  return {
    usedMb: gauge('nodejs_heap_size_used_bytes'),
    totalMb: gauge('nodejs_heap_size_total_bytes'),
    externalMb: gauge('nodejs_external_memory_bytes'),
  };
};

export const runBench = async (options: BenchOptions) => {
  const delivery: DeliveryOptions = {
    users: options.users,
    rate: options.rate,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
    groupSize: 5,
    receiverWorkers: options.receiverWorkers ?? RECEIVER_WORKERS,
    sendOver: options.sendOver,
  };
  /**
   * Veil's CPU, split by process; in cluster mode with NATS and Redis beside it (the servers on
   * this machine: their figures are the run's only while nothing else uses them).
   */
  const veilCpuProbe =
    (mode: DeliveryMode, veil: VeilProcess): CpuProbe =>
    async () => {
      const pid = veil.pid;
      const byProcess = await cpuSecondsByProcess(
        pid,
        mode === 'cluster' ? ['nats-server', 'redis-server'] : [],
      );
      const server = Object.entries(byProcess)
        .filter(([label]) => label !== 'nats-server' && label !== 'redis-server')
        .reduce((sum, [, seconds]) => sum + seconds, 0);
      return {
        server,
        byProcess,
        residentBytes: await residentBytesOf(pid),
        ...(mode === 'embedded' && { heap: await heapOf(veil.url) }),
      };
    };
  const history = options.storedMessages ? await prepareHistory(options.storedMessages) : undefined;
  const start: Record<DeliveryMode, () => Promise<VeilProcess>> = {
    embedded: () => startVeilProcess(options.port, history ? { DATA_DIR: history.dataDir } : {}),
    cluster: () => startVeilCluster(options.port + 100),
  };
  /** Starts a target, builds its load (accounts, chats, payloads), hands it to `body`, stops it. */
  const withTarget = async <T>(
    target: Target,
    body: (load: DeliveryTarget, cpuProbe?: CpuProbe) => Promise<T>,
  ): Promise<T> => {
    if (target === 'relay' || target === 'durableRelay') {
      const relay =
        target === 'relay'
          ? await startRelay(options.port + 200)
          : await startRelay(options.port + 201, 'durable');
      try {
        return await usingTarget(await relayTarget(relay.url, delivery), (load) =>
          body(load, async () => ({
            server: await cpuSecondsOf(relay.pid),
            residentBytes: await residentBytesOf(relay.pid),
          })),
        );
      } finally {
        await relay.stop();
      }
    }
    if (target === 'ejabberd') {
      const server = await startEjabberd(options.port + 202);
      try {
        return await usingTarget(await ejabberdTarget(server, delivery), (load) =>
          body(load, async () => ({
            server: await cpuSecondsOf(server.pid),
            residentBytes: await residentBytesOf(server.pid),
          })),
        );
      } finally {
        await server.stop();
      }
    }
    const veil = await start[target]();
    try {
      return await usingTarget(await veilTarget(veil, delivery), (load) =>
        body(load, veilCpuProbe(target, veil)),
      );
    } finally {
      await veil.stop();
    }
  };
  const ejabberdSkipped = options.ejabberd ? ejabberdUnavailable() : null;
  const targets: Target[] = [
    ...options.modes,
    'durableRelay',
    'relay',
    ...(options.ejabberd && !ejabberdSkipped ? (['ejabberd'] as const) : []),
  ];

  const runs: Record<Target, DeliveryResult[]> = {
    embedded: [],
    cluster: [],
    relay: [],
    durableRelay: [],
    ejabberd: [],
  };
  // Interleaved, so a noisy minute on this shared machine does not land on one target only.
  for (let i = 0; i < options.repeats; i++) {
    for (const target of targets) {
      runs[target].push(await withTarget(target, (load, cpuProbe) => runDelivery(load, delivery, cpuProbe)));
    }
  }
  const capacity: Partial<Record<Target, CapacityResult>> = {};
  if (options.capacityRates.length) {
    for (const target of targets) {
      capacity[target] = await withTarget(target, (load, cpuProbe) =>
        sweepCapacity(
          load,
          delivery,
          { rates: options.capacityRates, budgetMs: options.budgetMs, repeats: options.repeats },
          cpuProbe,
        ),
      );
    }
  }
  await history?.remove();
  const summaryOf = (target: Target) => (runs[target].length ? medianDelivery(runs[target]) : undefined);
  const [embedded, cluster, relay, durableRelay, ejabberd] = [
    summaryOf('embedded'),
    summaryOf('cluster'),
    summaryOf('relay')!,
    summaryOf('durableRelay')!,
    summaryOf('ejabberd'),
  ];
  /** Veil's capacity within the budget (deliveries/s) over a peer's; null when either has none. */
  const capacityRatio = (baselineTarget: 'relay' | 'durableRelay' | 'ejabberd') => {
    const [veil, baseline] = [capacity.embedded?.capacity, capacity[baselineTarget]?.capacity];
    return veil && baseline ? round(veil.deliveredPerSecond / baseline.deliveredPerSecond) : null;
  };
  const deliveryRatio = (baseline: DeliverySummary) =>
    embedded && {
      deliveredPerSecond: round(embedded.deliveredPerSecond / baseline.deliveredPerSecond),
      p99: round(embedded.p99 / baseline.p99),
    };
  const crypto = await runCryptoBench(options.quick ? 3 : 50);
  const keyBackup = options.keyBackupRepeats ? await runKeyBackupBench(options.keyBackupRepeats) : undefined;
  const signatures = options.signatureRounds ? await runSignatureBench(options.signatureRounds) : undefined;
  const groupIntegrity = options.groupIntegrityRounds
    ? await runGroupIntegrityBench(options.groupIntegrityRounds)
    : undefined;
  const keyLogs = options.keyLogRounds
    ? await runKeyLogBench(
        options.keyLogRounds,
        options.quick ? { longLogEntries: 20, contacts: 5 } : undefined,
      )
    : undefined;
  const chatList = options.chatListChats
    ? await runChatListBench(options.chatListChats, options.quick ? 1 : 7, options.port + 2)
    : undefined;
  const link = options.linkRepeats ? await runLinkBench(options.linkRepeats, options.port + 2) : undefined;
  const callSetup = options.callSetups
    ? await runCallSetupBench(options.callSetups, options.port + 2)
    : undefined;
  const timeline = options.timelineMessages
    ? await runTimelineIndexBench(options.timelineMessages)
    : undefined;
  const search = options.searchMessages ? await runSearchBench(options.searchMessages) : undefined;
  const natsRestart = options.natsRestartRounds
    ? await runNatsRestartBench(options.natsRestartRounds, options.port + 300)
    : undefined;
  const replay = [];
  for (const events of options.replayEvents) replay.push(await runReplayBench(events));
  const logAppend = [];
  for (const concurrency of options.logAppendConcurrency) {
    for (let run = 0; run < options.repeats; run++) {
      logAppend.push(await runLogAppendBench(concurrency, options.quick ? 1 : 8));
    }
  }
  const directory = [];
  for (const users of options.directoryUsers) {
    directory.push(await runDirectoryBench(users, options.quick ? 3 : 101));
  }
  const logins = options.loginAccounts
    ? await runLoginBench(options.loginAccounts, options.port + 3)
    : undefined;
  const changes = options.changes ? await runChangesBench(options.changes) : [];
  const connections = options.connectionSteps.length
    ? await runConnectionsBench(options.connectionSteps, options.port + 1)
    : [];
  return {
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    options: { ...options, receiverWorkers: delivery.receiverWorkers },
    delivery: {
      embedded,
      cluster,
      relay,
      durableRelay,
      ejabberd,
      ...(ejabberdSkipped && { ejabberdSkipped }),
      embeddedVsRelay: deliveryRatio(relay),
      embeddedVsDurableRelay: deliveryRatio(durableRelay),
      embeddedVsEjabberd: ejabberd ? deliveryRatio(ejabberd) : undefined,
      clusterVsEmbedded: cluster && embedded && { p99: round(cluster.p99 / embedded.p99) },
      /** Every run, for the spread behind the medians. */
      runs,
    },
    capacity: options.capacityRates.length
      ? {
          ...capacity,
          embeddedVsRelay: capacityRatio('relay'),
          embeddedVsDurableRelay: capacityRatio('durableRelay'),
          embeddedVsEjabberd: capacity.ejabberd ? capacityRatio('ejabberd') : undefined,
        }
      : undefined,
    crypto,
    keyBackup,
    signatures,
    groupIntegrity,
    keyLogs,
    chatList,
    link,
    callSetup,
    timeline,
    search,
    natsRestart,
    replay,
    logAppend,
    directory,
    logins,
    changes,
    connections,
  };
};

const printTable = (result: Awaited<ReturnType<typeof runBench>>) => {
  const {
    embedded,
    cluster,
    relay,
    durableRelay,
    ejabberd,
    ejabberdSkipped,
    embeddedVsRelay,
    embeddedVsDurableRelay,
    embeddedVsEjabberd,
    clusterVsEmbedded,
  } = result.delivery;
  const { users, rate, durationSeconds, warmupSeconds, repeats, receiverWorkers, sendOver } = result.options;
  console.log(
    `\nDelivery (${users} users, ${rate} sends/s offered, Veil sends over ${sendOver}, ${durationSeconds} s after ${warmupSeconds} s of warm-up, median of ${repeats}; receivers on ${receiverWorkers} worker threads)`,
  );
  // Every row carries the generator's CPU and loop delay; a row it limited says so.
  const row = ({ cpuMsPerSendByProcess: _split, heap: _heap, ...summary }: DeliverySummary) => summary;
  console.table({
    ...(embedded && { 'veil embedded': row(embedded) }),
    ...(cluster && { 'veil cluster': row(cluster) }),
    'durable relay': row(durableRelay),
    'bare relay': row(relay),
    ...(ejabberd && { ejabberd: row(ejabberd) }),
    ...(embeddedVsDurableRelay && { 'embedded / durable relay': embeddedVsDurableRelay }),
    ...(embeddedVsEjabberd && { 'embedded / ejabberd': embeddedVsEjabberd }),
    ...(embeddedVsRelay && { 'embedded / relay': embeddedVsRelay }),
    ...(clusterVsEmbedded && { 'cluster / embedded': clusterVsEmbedded }),
  });
  if (ejabberdSkipped) console.log(`ejabberd skipped: ${ejabberdSkipped}`);
  for (const [mode, summary] of [
    ['embedded', embedded],
    ['cluster', cluster],
  ] as const) {
    if (summary?.cpuMsPerSendByProcess) printCpuByProcess(mode, summary, rate);
    if (summary?.heap)
      console.log(
        `Memory of veil ${mode} after the load: ${summary.rssMb} MiB resident, of which JS heap ` +
          `${summary.heap.usedMb} MiB used of ${summary.heap.totalMb}, external ${summary.heap.externalMb} MiB`,
      );
  }
  if (result.capacity) {
    const { embeddedVsRelay, embeddedVsDurableRelay, embeddedVsEjabberd, ...byTarget } = result.capacity;
    for (const [target, sweep] of Object.entries(byTarget)) {
      console.log(`Capacity at p99 <= ${sweep.budgetMs} ms: ${target}`);
      console.table(sweep.steps.map(({ cpuMsPerSendByProcess: _split, heap: _heap, ...step }) => step));
      console.log(
        sweep.capacity
          ? `  capacity: ${sweep.capacity.rate} sends/s (${sweep.capacity.deliveredPerSecond} deliveries/s at p99 ${sweep.capacity.p99} ms); the next step failed`
          : `  no capacity figure (${sweep.reason})`,
      );
    }
    console.log(
      `A step is generator-limited when the generator's main thread passed ${GENERATOR_LIMITS.mainThreadCores * 100} % of a core or a loop's delay p99 passed ${GENERATOR_LIMITS.lagP99Ms} ms; it ends the sweep and counts for no one.`,
    );
    console.log('embedded / relay, deliveries per second within the budget (only where both have a figure):');
    console.log(
      `  durable relay: ${embeddedVsDurableRelay ?? 'no ratio'}, bare relay: ${embeddedVsRelay ?? 'no ratio'}` +
        (embeddedVsEjabberd === undefined ? '' : `, ejabberd: ${embeddedVsEjabberd ?? 'no ratio'}`),
    );
  }
  console.log('Client crypto (median ms)');
  console.table(result.crypto);
  if (result.keyBackup) {
    console.log('Key backup in Chromium (median ms; passphrase KDF, and a restore beyond it)');
    console.table(result.keyBackup);
  }
  if (result.signatures) {
    console.log('Sender signatures in Chromium (median ms; per message, and a 100-message history)');
    console.table(result.signatures);
  }
  if (result.groupIntegrity) {
    console.log(
      'Signed group state and length padding in Chromium (median ms; a chain, a send, a 100-message page)',
    );
    console.table(result.groupIntegrity);
  }
  if (result.keyLogs) {
    console.log('Key logs in Chromium (median ms; a 1,000-entry log, 500 contacts, per send)');
    console.table(result.keyLogs);
  }
  if (result.chatList) {
    const { firstLoad, ...chatList } = result.chatList;
    console.log('First visit in a fresh profile (ms to the Welcome page drawn; its scripts, gzipped)');
    console.table(firstLoad);
    console.log('Chat list in Chromium (median ms from the page start, and from its first API call)');
    console.table(chatList);
  }
  if (result.search) {
    console.log(
      `Message search in Chromium over ${result.search.messages} messages (build ${result.search.buildSeconds} s; ms per query)`,
    );
    console.table(result.search.queries);
    console.log({ ...result.search, queries: undefined });
  }
  if (result.link) {
    console.log(
      'Linking a browser in Chromium (median ms; join with the code → keys stored, and a history page read)',
    );
    console.table(result.link);
  }
  if (result.callSetup) {
    console.log(
      'Call set-up in Chromium on loopback (ms from the click on "call" to media on both sides; server CPU ms per set-up)',
    );
    console.table(result.callSetup);
  }
  if (result.timeline) {
    console.log(
      'The message timeline read from the log through its indexes (ms per page of 50; µs per append)',
    );
    console.log(JSON.stringify(result.timeline, null, 2));
  }
  if (result.natsRestart) {
    console.log(
      'NATS killed and started again under a cluster (ms from NATS listening again: a fresh delivery, a new chat; push p99 in the 5 s after)',
    );
    console.table(result.natsRestart);
  }
  console.log('Replay (build every read model from the log, restart on them, pages of history in ms)');
  console.table(result.replay);
  if (result.logAppend.length) {
    console.log('Embedded event log alone (appends each waiting for durability; every run)');
    console.table(result.logAppend);
  }
  console.log('User directory (ms per answer of the user service: median, p99)');
  console.table(result.directory);
  if (result.logins) {
    console.log('Registrations and logins (one embedded process; CPU ms each, and one password hash alone)');
    console.table({
      ...result.logins,
      hash: JSON.stringify(result.logins.hash),
      loginMs: JSON.stringify(result.logins.loginMs),
    });
  }
  console.log(
    'Changes to a message next to the message (group of 5, embedded, one at a time, over HTTP and the socket)',
  );
  console.table(result.changes);
  console.log('Idle authenticated sockets in one process');
  console.table(result.connections);
};

/**
 * Where Veil's CPU goes, process by process, at the offered rate: per send, per delivery, the
 * share of a core it takes, and the sends per second one core of that process would carry.
 */
const printCpuByProcess = (mode: DeliveryMode, summary: DeliverySummary, rate: number) => {
  const deliveriesPerSend = summary.sent ? summary.deliveredPerSecond / rate : 1;
  const rows = Object.entries(summary.cpuMsPerSendByProcess ?? {}).map(([process, msPerSend]) => ({
    process,
    msPerSend: round(msPerSend, 4),
    msPerDelivery: round(msPerSend / deliveriesPerSend, 4),
    coreShare: round((msPerSend * rate) / 1000, 3),
    sendsPerCore: msPerSend > 0 ? Math.round(1000 / msPerSend) : null,
  }));
  const total = rows.reduce((sum, r) => sum + r.msPerSend, 0);
  console.log(`CPU by process, veil ${mode} at ${rate} sends/s (median of runs)`);
  console.table([
    ...rows,
    {
      process: 'all',
      msPerSend: round(total, 4),
      msPerDelivery: round(total / deliveriesPerSend, 4),
      coreShare: round((total * rate) / 1000, 3),
      sendsPerCore: null,
    },
  ]);
};

/** `embedded`, `cluster`, both, or `none` (the relays alone); a typo stops the run instead of skipping Veil. */
const parseModes = (list: string): DeliveryMode[] => {
  if (list === 'none') return [];
  return list.split(',').map((mode) => {
    if (mode === 'embedded' || mode === 'cluster') return mode;
    throw new Error(`--modes: unknown mode "${mode}" (embedded, cluster or none)`);
  });
};

const parseSendPath = (value: string): SendPath => {
  if (value === 'socket' || value === 'http') return value;
  throw new Error(`--send: unknown path "${value}" (socket or http)`);
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      users: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      modes: { type: 'string' },
      send: { type: 'string', default: 'socket' },
      capacity: { type: 'string' },
      'budget-ms': { type: 'string' },
      repeats: { type: 'string' },
      'receiver-workers': { type: 'string' },
      replay: { type: 'string' },
      'log-append': { type: 'string' },
      directory: { type: 'string' },
      connections: { type: 'string' },
      changes: { type: 'string' },
      'key-backup': { type: 'string' },
      signatures: { type: 'string' },
      'group-integrity': { type: 'string' },
      'key-logs': { type: 'string' },
      'chat-list': { type: 'string' },
      logins: { type: 'string' },
      link: { type: 'string' },
      'call-setup': { type: 'string' },
      timeline: { type: 'string' },
      search: { type: 'string' },
      'nats-restart': { type: 'string' },
      stored: { type: 'string' },
      ejabberd: { type: 'boolean', default: false },
      port: { type: 'string', default: '18900' },
    },
  });
  const quick = values.quick ?? false;
  const options: BenchOptions = {
    quick,
    users: Number(values.users ?? (quick ? 12 : 200)),
    rate: Number(values.rate ?? (quick ? 20 : 2000)),
    durationSeconds: Number(values.duration ?? (quick ? 1 : 10)),
    warmupSeconds: Number(values.warmup ?? (quick ? 0.5 : 3)),
    repeats: Number(values.repeats ?? (quick ? 1 : 3)),
    ...(values['receiver-workers'] && { receiverWorkers: Number(values['receiver-workers']) }),
    modes: parseModes(values.modes ?? (quick ? 'embedded' : 'embedded,cluster')),
    sendOver: parseSendPath(values.send),
    capacityRates: parseCapacityRates(values.capacity ?? ''),
    budgetMs: Number(values['budget-ms'] ?? 50),
    replayEvents: (values.replay ?? (quick ? '1000' : '100000,1000000'))
      .split(',')
      .filter(Boolean)
      .map(Number),
    logAppendConcurrency: (values['log-append'] ?? (quick ? '4' : '')).split(',').filter(Boolean).map(Number),
    directoryUsers: (values.directory ?? (quick ? '500' : '100000')).split(',').filter(Boolean).map(Number),
    connectionSteps: (values.connections ?? (quick ? '20' : '1000,5000,10000'))
      .split(',')
      .filter(Boolean)
      .map(Number),
    keyBackupRepeats: Number(values['key-backup'] ?? (quick ? 1 : 7)),
    signatureRounds: Number(values.signatures ?? (quick ? 1 : 5)),
    groupIntegrityRounds: Number(values['group-integrity'] ?? (quick ? 0 : 5)),
    keyLogRounds: Number(values['key-logs'] ?? (quick ? 1 : 5)),
    chatListChats: Number(values['chat-list'] ?? (quick ? 0 : 500)),
    loginAccounts: Number(values.logins ?? (quick ? 6 : 200)),
    linkRepeats: Number(values.link ?? (quick ? 1 : 7)),
    callSetups: Number(values['call-setup'] ?? (quick ? 0 : 20)),
    timelineMessages: Number(values.timeline ?? (quick ? 0 : 1_000_000)),
    searchMessages: Number(values.search ?? (quick ? 2000 : 100_000)),
    natsRestartRounds: Number(values['nats-restart'] ?? (quick ? 0 : 3)),
    storedMessages: Number(values.stored ?? 0),
    ejabberd: values.ejabberd ?? false,
    changes: Number(values.changes ?? (quick ? 5 : 200)),
    port: Number(values.port),
  };
  const result = await runBench(options);
  printTable(result);
  const dir = path.resolve(import.meta.dirname, '../../bench-results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(result, null, 2));
  console.log(`written: ${file}`);
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
