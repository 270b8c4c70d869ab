import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { byContext, checkpointCollection } from '@veil/kernel';
import type {
  Clock,
  EventBus,
  InlineProjections,
  Logger,
  MessageTimeline,
  Metrics,
  Ports,
  Tracing,
} from '@veil/ports';
import { dataOwners, type VeilConfig } from './config.ts';
import { createIdGenerator } from './ids.ts';
import { commitMetrics, publishMetrics } from './log-metrics.ts';
import { measureRpc } from './measured-rpc.ts';
import { stampTraceIds } from './traced-bus.ts';

/**
 * The one place adapters are chosen, by configuration alone. Nothing else in the tree imports
 * an adapter package; services see only the `Ports` interfaces. Adapters load lazily, so the
 * embedded app never loads the NATS, MongoDB or MinIO drivers.
 */
export interface OwnedPorts {
  ports: Ports;
  close(): Promise<void>;
}

/** What the process made before its adapters: they report to these, through their options. */
export interface Observability {
  log: Logger;
  metrics: Metrics;
  tracing: Tracing;
  /** The time every service reads (default: the system's); tests move it to cross time limits. */
  clock?: Clock;
}

/** The stores that keep events and read models, and what they share. */
export interface Stores {
  bus: EventBus;
  rpc: Ports['rpc'];
  readStore: Ports['readStore'];
  /** Embedded mode: projections run inside the log's commits. */
  inlineProjections?: InlineProjections;
  /** Embedded mode: the message timeline answered from the log, through indexes over it. */
  messageTimeline?: MessageTimeline;
  close(): Promise<void>;
}

/** Where the embedded log keeps its file (and, in embedded mode, the read models). */
const eventsDir = (config: VeilConfig) => path.join(config.dataDir, 'events');

/** The read-model file of earlier versions, and of a process on MongoDB's absence but with NATS. */
export const readModelFile = (config: VeilConfig) => path.join(config.dataDir, 'read-models.sqlite');

/** The read store the config selects beside NATS: MongoDB, or SQLite in DATA_DIR. */
const createFollowerReadStore = async (config: VeilConfig): Promise<Ports['readStore']> =>
  config.MONGODB_URL
    ? (await import('@veil/readstore-mongo')).createMongoReadStore({
        url: config.MONGODB_URL,
        database: config.MONGODB_DB,
      })
    : (await import('@veil/readstore-sqlite')).createSqliteReadStore({ file: readModelFile(config) });

/**
 * Embedded mode: the event log and the read models in one SQLite file with one writer thread,
 * each commit appending its events and storing what the projections make of them
 * (docs/event-backbone.md). The file's lock is taken before anything touches the log, so a
 * second process on the same DATA_DIR (or a rebuild beside a running Veil) stops at once. A
 * read-model file of an earlier version is removed: the read models are built again from the
 * log into the shared file, as a first start builds them.
 */
const createEmbeddedStores = async (
  config: VeilConfig,
  log: Logger,
  observe: Partial<Omit<Observability, 'log'>>,
): Promise<Stores> => {
  const { createEmbeddedBus, createEmbeddedRpc } = await import('@veil/bus-embedded');
  const { logFileName } = await import('@veil/bus-embedded/log-database');
  const sqlite = await import('@veil/readstore-sqlite');
  const lock = sqlite.lockReadModelFile(path.join(eventsDir(config), logFileName));
  try {
    const earlier = readModelFile(config);
    if (existsSync(earlier)) {
      sqlite.removeSqliteReadStore(earlier);
      rmSync(`${earlier}.lock`, { force: true });
      log.info(
        { file: earlier },
        "read models move into the event log's file; they are built again from the log",
      );
    }
    const bus = await createEmbeddedBus({
      dataDir: eventsDir(config),
      log,
      companion: sqlite.logCompanionModule,
      messageTimeline: true,
      ...(observe.metrics && { onCommit: commitMetrics(observe.metrics) }),
    });
    const shared = bus.shared!;
    const readStore = sqlite.createSqliteReadStore({ file: shared.file, sharedLog: shared });
    return {
      bus,
      // In process, the trace follows the call by itself (AsyncLocalStorage).
      rpc: createEmbeddedRpc({ log }),
      readStore,
      inlineProjections: shared.inlineProjections(readStore.commitEncoder!),
      messageTimeline: bus.messageTimeline!,
      async close() {
        await readStore.close();
        await bus.close();
        lock.release();
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
};

/**
 * The stores the config selects: NATS JetStream with MongoDB (or SQLite) read models that follow
 * it, or the embedded log and read models in one file under DATA_DIR/events. Given metrics and
 * tracing (a serving process), the log reports its commits or publishes and the NATS RPC carries
 * trace context; tools such as the rebuild pass only a logger.
 */
export const createStores = async (
  config: VeilConfig,
  log: Logger,
  observe: Partial<Omit<Observability, 'log'>> = {},
): Promise<Stores> => {
  if (!config.NATS_URL && !config.MONGODB_URL) return createEmbeddedStores(config, log, observe);
  const readStore = await createFollowerReadStore(config);
  const { bus, rpc, close } = await createEventLog(config, log, observe).catch(async (error: unknown) => {
    await readStore.close();
    throw error;
  });
  return {
    bus,
    rpc,
    readStore,
    async close() {
      await readStore.close();
      await close();
    },
  };
};

/** The event log the config selects beside read models that follow it: NATS JetStream, or the embedded log. */
const createEventLog = async (
  config: VeilConfig,
  log: Logger,
  observe: Partial<Omit<Observability, 'log'>>,
): Promise<{ bus: EventBus; rpc: Ports['rpc']; close(): Promise<void> }> => {
  if (config.NATS_URL) {
    const { connectNats, createNatsBus, createNatsRpc } = await import('@veil/bus-nats');
    const connection = await connectNats({ servers: config.NATS_URL, name: config.INSTANCE_ID, log });
    const bus = await createNatsBus({
      connection,
      prefix: config.VEIL_STREAM_PREFIX,
      log,
      ...(observe.metrics && { onPublish: publishMetrics(observe.metrics) }),
    });
    const rpc = createNatsRpc({
      connection,
      prefix: config.VEIL_STREAM_PREFIX,
      log,
      ...(observe.tracing && { tracing: observe.tracing }),
    });
    return {
      bus,
      rpc,
      async close() {
        await bus.close();
        await connection.drain();
      },
    };
  }
  const { createEmbeddedBus, createEmbeddedRpc } = await import('@veil/bus-embedded');
  const bus = await createEmbeddedBus({
    dataDir: eventsDir(config),
    log,
    ...(observe.metrics && { onCommit: commitMetrics(observe.metrics) }),
  });
  return { bus, rpc: createEmbeddedRpc({ log }), close: () => bus.close() };
};

export const createPorts = async (config: VeilConfig, observability: Observability): Promise<OwnedPorts> => {
  const { log, metrics, tracing } = observability;
  const closers: (() => Promise<void>)[] = [];

  const {
    bus,
    rpc,
    readStore,
    inlineProjections,
    messageTimeline,
    close: closeStores,
  } = await createStores(config, log, {
    metrics,
    tracing,
  });
  closers.push(closeStores);
  // A file read store takes its lock here (the embedded one took it before opening the log).
  if (config.VEIL_SERVICES.some((name) => dataOwners.includes(name))) {
    await readStore.collection(checkpointCollection);
  }

  const rateLimits = config.REDIS_URL
    ? (await import('@veil/rate-limits/redis')).createRedisRateLimits({
        url: config.REDIS_URL,
        prefix: config.VEIL_STREAM_PREFIX,
      })
    : (await import('@veil/rate-limits/memory')).createMemoryRateLimits();
  closers.push(() => rateLimits.close());

  const realtimeScaling = config.REDIS_URL
    ? (await import('@veil/realtime-scaling/redis')).createRedisScaling({
        url: config.REDIS_URL,
        keyPrefix: config.VEIL_STREAM_PREFIX,
        log,
      })
    : (await import('@veil/realtime-scaling/memory')).createMemoryScaling();
  closers.push(() => realtimeScaling.close());

  const blobs = config.S3_ENDPOINT
    ? await (
        await import('@veil/blob-minio')
      ).createMinioBlobStore({
        endpoint: config.S3_ENDPOINT,
        accessKey: config.S3_ACCESS_KEY!,
        secretKey: config.S3_SECRET_KEY!,
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
      })
    : (await import('@veil/blob-fs')).createFsBlobStore({ dir: path.join(config.dataDir, 'blobs') });
  closers.push(() => blobs.close());

  return {
    ports: {
      bus: byContext(stampTraceIds(bus, tracing)),
      rpc: measureRpc(rpc, metrics, log),
      readStore,
      blobs,
      rateLimits,
      realtimeScaling,
      clock: observability.clock ?? { now: () => new Date() },
      ids: createIdGenerator(),
      log,
      metrics,
      tracing,
      ...(inlineProjections && { inlineProjections }),
      ...(messageTimeline && { messageTimeline }),
    },
    async close() {
      // Reverse order: stores first, the connection they ride on last.
      for (const close of closers.reverse()) {
        await close().catch((err: unknown) => log.warn({ err }, 'error while closing an adapter'));
      }
    },
  };
};
