import type {
  BlobStore,
  EventBus,
  Logger,
  Metrics,
  Ports,
  RateLimits,
  ReadStore,
  RealtimeScaling,
  Rpc,
  Tracing,
} from '@veil/ports';
import { createMemoryScaling } from '@veil/realtime-scaling/memory';
import { byContext } from '@veil/kernel';
import { ulid } from 'ulid';
import { testLogger } from './test-logger.ts';

/** The realtime gateway never touches these; a call would be a bug, so they fail loudly. */
const unused = (what: string) => () => Promise.reject(new Error(`the realtime gateway does not use ${what}`));

const noReadStore: ReadStore = { collection: unused('the read store') } as unknown as ReadStore;
const noBlobs: BlobStore = {
  put: unused('blobs'),
  get: unused('blobs'),
  delete: unused('blobs'),
  list: unused('blobs'),
  deleteFolder: unused('blobs'),
  close: async () => {},
};
const noRateLimits: RateLimits = {
  limit: () => ({
    consume: unused('rate limits'),
    peek: unused('rate limits'),
    reset: unused('rate limits'),
  }),
  close: async () => {},
};

/** The replica's own metrics and traces are tested on the whole app; here they go nowhere. */
const noMetrics: Metrics = {
  counter: () => ({ inc: () => undefined }),
  gauge: () => ({ set: () => undefined, sampleOnScrape: () => () => undefined }),
  histogram: () => ({ observe: () => undefined }),
};
const noTracing: Tracing = {
  run: (_parent, work) => work(),
  traceId: () => undefined,
  traceparent: () => undefined,
};

/**
 * Ports for one realtime replica in a test: real bus and RPC, real clock and ids, and the
 * scaling adapter given (Redis for several replicas) or the memory one.
 */
export const realtimePorts = (
  bus: EventBus,
  rpc: Rpc,
  log: Logger = testLogger(),
  realtimeScaling: RealtimeScaling = createMemoryScaling(),
): Ports => ({
  bus: byContext(bus),
  rpc,
  readStore: noReadStore,
  blobs: noBlobs,
  rateLimits: noRateLimits,
  realtimeScaling,
  clock: { now: () => new Date() },
  ids: { next: () => ulid() },
  log,
  metrics: noMetrics,
  tracing: noTracing,
});
