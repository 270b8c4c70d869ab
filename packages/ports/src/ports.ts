import type { BlobStore } from './blob-store.port.ts';
import type { Clock, IdGenerator, Logger } from './clock.port.ts';
import type { ContextEventBus } from './event-store.port.ts';
import type { InlineProjections } from './inline-projections.port.ts';
import type { MessageTimeline } from './message-timeline.port.ts';
import type { Metrics } from './metrics.port.ts';
import type { RateLimits } from './rate-limit.port.ts';
import type { ReadStore } from './read-store.port.ts';
import type { RealtimeScaling } from './realtime-scaling.port.ts';
import type { Rpc } from './rpc.port.ts';
import type { Tracing } from './tracing.port.ts';

/** Everything a service may touch outside its own code. Built once by @veil/app. */
export interface Ports {
  bus: ContextEventBus;
  rpc: Rpc;
  readStore: ReadStore;
  blobs: BlobStore;
  rateLimits: RateLimits;
  realtimeScaling: RealtimeScaling;
  clock: Clock;
  ids: IdGenerator;
  log: Logger;
  metrics: Metrics;
  tracing: Tracing;
  /**
   * Set when the event log stores the read models in its own commits (embedded mode): projections
   * then run inside those commits instead of following the log (`startProjection`).
   */
  inlineProjections?: InlineProjections;
  /**
   * Set when the event log answers the message timeline itself, through indexes over it
   * (embedded mode); otherwise the message service keeps the timeline as a read model.
   */
  messageTimeline?: MessageTimeline;
}
