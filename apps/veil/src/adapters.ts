import path from 'node:path';
import { byContext, checkpointCollection } from '@veil/kernel';
import type { Clock, EventBus, Logger, Metrics, Ports, Tracing } from '@veil/ports';
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

/**
 * The event log the config selects: NATS JetStream, or the embedded log under DATA_DIR/events.
 * Given metrics and tracing (a serving process), the log reports its commits or publishes and the
 * NATS RPC carries trace context; tools such as the rebuild pass only a logger.
 */
export const createEventLog = async (
  config: VeilConfig,
  log: Logger,
  observe: Partial<Omit<Observability, 'log'>> = {},
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
    dataDir: path.join(config.dataDir, 'events'),
    log,
    ...(observe.metrics && { onCommit: commitMetrics(observe.metrics) }),
  });
  // In process, the trace follows the call by itself (AsyncLocalStorage).
  return { bus, rpc: createEmbeddedRpc({ log }), close: () => bus.close() };
};

/** The read-model file of embedded mode (and of any process without MONGODB_URL). */
export const readModelFile = (config: VeilConfig) => path.join(config.dataDir, 'read-models.sqlite');

/** The read store the config selects: MongoDB, or SQLite in DATA_DIR. */
export const createReadStore = async (config: VeilConfig): Promise<Ports['readStore']> =>
  config.MONGODB_URL
    ? (await import('@veil/readstore-mongo')).createMongoReadStore({
        url: config.MONGODB_URL,
        database: config.MONGODB_DB,
      })
    : (await import('@veil/readstore-sqlite')).createSqliteReadStore({ file: readModelFile(config) });

export const createPorts = async (config: VeilConfig, observability: Observability): Promise<OwnedPorts> => {
  const { log, metrics, tracing } = observability;
  const closers: (() => Promise<void>)[] = [];

  const readStore = await createReadStore(config);
  closers.push(() => readStore.close());
  // Opened before the event log: in embedded mode the read-model file's lock stops a second
  // process on the same DATA_DIR before it touches the log (it would append beside this one).
  if (config.VEIL_SERVICES.some((name) => dataOwners.includes(name))) {
    await readStore.collection(checkpointCollection);
  }

  const { bus, rpc, close: closeLog } = await createEventLog(config, log, { metrics, tracing });
  closers.push(closeLog);

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
    },
    async close() {
      // Reverse order: stores first, the connection they ride on last.
      for (const close of closers.reverse()) {
        await close().catch((err: unknown) => log.warn({ err }, 'error while closing an adapter'));
      }
    },
  };
};
