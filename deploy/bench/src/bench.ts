import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runConnectionsBench } from './connections-bench.ts';
import { runCryptoBench } from './crypto-bench.ts';
import { runKeyBackupBench } from './key-backup-bench.ts';
import { runLinkBench } from './link-bench.ts';
import {
  runDelivery,
  usingTarget,
  veilTarget,
  type DeliveryOptions,
  type DeliveryResult,
  type DeliveryTarget,
  type SendPath,
} from './delivery.ts';
import { RECEIVER_WORKERS } from './receivers.ts';
import { relayTarget, startRelay } from './relay.ts';
import { runReplayBench } from './replay-bench.ts';
import { runChangesBench } from './changes-bench.ts';
import { runDirectoryBench } from './directory-bench.ts';
import { medianDelivery, sweepCapacity, type CapacityResult } from './capacity.ts';
import { cpuSecondsOf } from './process-cpu.ts';
import { round } from './stats.ts';
import { startVeilCluster, startVeilProcess, type VeilProcess } from './veil-process.ts';

/**
 * `npm run bench [-- --quick]`: delivery (Veil beside a bare Socket.IO relay), client crypto,
 * the key backup in Chromium (`--key-backup <rounds>`, 0 skips it), linking a browser in
 * Chromium (`--link <rounds>`, 0 skips it), and read-model replay; prints a table and writes
 * bench-results/<time>.json. Machines here are shared and noisy, so each delivery run is
 * repeated and medians are reported. `--quick` is a tiny run that CI uses to keep the harness
 * working (accounting only, no timing claims). The load generator sends from its main thread and
 * holds the receiving sockets in worker threads (`--receiver-workers`, default 2), so arrivals
 * are not timed behind its own sending.
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
  directoryUsers: number[];
  connectionSteps: number[];
  /** Operations of each kind in the message-changes part (0: skipped). */
  changes: number;
  /** Rounds of the key-backup benchmark in Chromium (0 or absent: skipped). */
  keyBackupRepeats?: number;
  /** Rounds of the browser-link benchmark in Chromium (0 or absent: skipped). */
  linkRepeats?: number;
  port: number;
}

/** Where a delivery run sends its load. */
export type DeliveryMode = 'embedded' | 'cluster';

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
  const start: Record<DeliveryMode, () => Promise<VeilProcess>> = {
    embedded: () => startVeilProcess(options.port),
    cluster: () => startVeilCluster(options.port + 100),
  };
  /** Starts a target, builds its load (accounts, chats, payloads), hands it to `body`, stops it. */
  const withTarget = async <T>(
    target: DeliveryMode | 'relay',
    body: (load: DeliveryTarget, cpuProbe?: () => Promise<number>) => Promise<T>,
  ): Promise<T> => {
    if (target === 'relay') {
      const relay = await startRelay(options.port + 200);
      try {
        return await usingTarget(await relayTarget(relay.url, delivery), (load) =>
          body(load, () => cpuSecondsOf(relay.pid)),
        );
      } finally {
        await relay.stop();
      }
    }
    const veil = await start[target]();
    try {
      return await usingTarget(await veilTarget(veil, delivery), (load) =>
        body(load, () => cpuSecondsOf(veil.pid)),
      );
    } finally {
      await veil.stop();
    }
  };
  const targets = [...options.modes, 'relay' as const];

  const runs: Record<DeliveryMode | 'relay', DeliveryResult[]> = { embedded: [], cluster: [], relay: [] };
  // Interleaved, so a noisy minute on this shared machine does not land on one target only.
  for (let i = 0; i < options.repeats; i++) {
    for (const target of targets) {
      runs[target].push(await withTarget(target, (load, cpuProbe) => runDelivery(load, delivery, cpuProbe)));
    }
  }
  const capacity: Partial<Record<DeliveryMode | 'relay', CapacityResult>> = {};
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
  const summaryOf = (target: DeliveryMode | 'relay') =>
    runs[target].length ? medianDelivery(runs[target]) : undefined;
  const [embedded, cluster, relay] = [summaryOf('embedded'), summaryOf('cluster'), summaryOf('relay')];
  const crypto = await runCryptoBench(options.quick ? 3 : 50);
  const keyBackup = options.keyBackupRepeats ? await runKeyBackupBench(options.keyBackupRepeats) : undefined;
  const link = options.linkRepeats ? await runLinkBench(options.linkRepeats, options.port + 2) : undefined;
  const replay = [];
  for (const events of options.replayEvents) replay.push(await runReplayBench(events));
  const directory = [];
  for (const users of options.directoryUsers) {
    directory.push(await runDirectoryBench(users, options.quick ? 3 : 101));
  }
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
      relay: relay!,
      embeddedVsRelay: embedded && {
        deliveredPerSecond: round(embedded.deliveredPerSecond / relay!.deliveredPerSecond),
        p99: round(embedded.p99 / relay!.p99),
      },
      clusterVsEmbedded: cluster && embedded && { p99: round(cluster.p99 / embedded.p99) },
      /** Every run, for the spread behind the medians. */
      runs,
    },
    capacity: options.capacityRates.length
      ? {
          ...capacity,
          embeddedVsRelay:
            capacity.embedded?.capacity && capacity.relay?.capacity
              ? round(
                  capacity.embedded.capacity.deliveredPerSecond / capacity.relay.capacity.deliveredPerSecond,
                )
              : null,
        }
      : undefined,
    crypto,
    keyBackup,
    link,
    replay,
    directory,
    changes,
    connections,
  };
};

const printTable = (result: Awaited<ReturnType<typeof runBench>>) => {
  const { embedded, cluster, relay, embeddedVsRelay, clusterVsEmbedded } = result.delivery;
  const { users, rate, durationSeconds, warmupSeconds, repeats, receiverWorkers, sendOver } = result.options;
  console.log(
    `\nDelivery (${users} users, ${rate} sends/s offered, Veil sends over ${sendOver}, ${durationSeconds} s after ${warmupSeconds} s of warm-up, median of ${repeats}; receivers on ${receiverWorkers} worker threads)`,
  );
  console.table({
    ...(embedded && { 'veil embedded': embedded }),
    ...(cluster && { 'veil cluster': cluster }),
    'bare relay': relay,
    ...(embeddedVsRelay && { 'embedded / relay': embeddedVsRelay }),
    ...(clusterVsEmbedded && { 'cluster / embedded': clusterVsEmbedded }),
  });
  if (result.capacity) {
    const { embeddedVsRelay, ...byTarget } = result.capacity;
    for (const [target, sweep] of Object.entries(byTarget)) {
      console.log(`Capacity at p99 <= ${sweep.budgetMs} ms: ${target}`);
      console.table(sweep.steps);
      console.log(`  highest rate within budget: ${JSON.stringify(sweep.capacity)}`);
    }
    console.log(`embedded / relay, deliveries per second within the budget: ${embeddedVsRelay}`);
  }
  console.log('Client crypto (median ms)');
  console.table(result.crypto);
  if (result.keyBackup) {
    console.log('Key backup in Chromium (median ms; passphrase KDF, and a restore beyond it)');
    console.table(result.keyBackup);
  }
  if (result.link) {
    console.log(
      'Linking a browser in Chromium (median ms; join with the code → keys stored, and a history page read)',
    );
    console.table(result.link);
  }
  console.log('Replay (build every read model from the log, restart on them, pages of history in ms)');
  console.table(result.replay);
  console.log('User directory (ms per answer of the user service: median, p99)');
  console.table(result.directory);
  console.log('Changes to a message next to the message (group of 5, embedded, one at a time)');
  console.table(result.changes);
  console.log('Idle authenticated sockets in one process');
  console.table(result.connections);
};

/** `embedded`, `cluster`, both, or `none` (the relay alone); a typo stops the run instead of skipping Veil. */
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
      directory: { type: 'string' },
      connections: { type: 'string' },
      changes: { type: 'string' },
      'key-backup': { type: 'string' },
      link: { type: 'string' },
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
    capacityRates: (values.capacity ?? '').split(',').filter(Boolean).map(Number),
    budgetMs: Number(values['budget-ms'] ?? 50),
    replayEvents: (values.replay ?? (quick ? '1000' : '100000,1000000'))
      .split(',')
      .filter(Boolean)
      .map(Number),
    directoryUsers: (values.directory ?? (quick ? '500' : '100000')).split(',').filter(Boolean).map(Number),
    connectionSteps: (values.connections ?? (quick ? '20' : '1000,5000,10000'))
      .split(',')
      .filter(Boolean)
      .map(Number),
    keyBackupRepeats: Number(values['key-backup'] ?? (quick ? 1 : 7)),
    linkRepeats: Number(values.link ?? (quick ? 1 : 7)),
    changes: Number(values.changes ?? (quick ? 5 : 200)),
    port: Number(values.port),
  };
  const result = await runBench(options);
  printTable(result);
  const dir = path.resolve(import.meta.dirname, '../../../bench-results');
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
