import path from 'node:path';
import type { Logger, Metrics, Ports, Tracing } from '@veil/ports';
import type { VeilConfig } from './config.ts';
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
}

export const createPorts = async (config: VeilConfig, observability: Observability): Promise<OwnedPorts> => {
  const { log, metrics, tracing } = observability;
  const closers: (() => Promise<void>)[] = [];

  let bus: Ports['bus'];
  let rpc: Ports['rpc'];
  if (config.NATS_URL) {
    const { connectNats, createNatsBus, createNatsRpc } = await import('@veil/bus-nats');
    const connection = await connectNats({ servers: config.NATS_URL, name: config.INSTANCE_ID, log });
    bus = await createNatsBus({
      connection,
      prefix: config.VEIL_STREAM_PREFIX,
      log,
      onPublish: publishMetrics(metrics),
    });
    rpc = createNatsRpc({ connection, prefix: config.VEIL_STREAM_PREFIX, log, tracing });
    closers.push(() => connection.drain());
  } else {
    const { createEmbeddedBus, createEmbeddedRpc } = await import('@veil/bus-embedded');
    bus = await createEmbeddedBus({
      dataDir: path.join(config.dataDir, 'events'),
      log,
      onCommit: commitMetrics(metrics),
    });
    // In process, the trace follows the call by itself (AsyncLocalStorage).
    rpc = createEmbeddedRpc({ log });
  }
  closers.push(() => bus.close());

  const readStore = config.MONGODB_URL
    ? await (
        await import('@veil/readstore-mongo')
      ).createMongoReadStore({ url: config.MONGODB_URL, database: config.MONGODB_DB })
    : (await import('@veil/readstore-embedded')).createEmbeddedReadStore();
  closers.push(() => readStore.close());

  const rateLimits = config.REDIS_URL
    ? (await import('@veil/rate-limits/redis')).createRedisRateLimits({
        url: config.REDIS_URL,
        prefix: config.VEIL_STREAM_PREFIX,
      })
    : (await import('@veil/rate-limits/memory')).createMemoryRateLimits();
  closers.push(() => rateLimits.close());

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
      bus: stampTraceIds(bus, tracing),
      rpc: measureRpc(rpc, metrics, log),
      readStore,
      blobs,
      rateLimits,
      clock: { now: () => new Date() },
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
