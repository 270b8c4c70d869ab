export type * from './event-store.port.ts';
export type * from './rpc.port.ts';
export type * from './read-store.port.ts';
export type * from './inline-projections.port.ts';
export type * from './message-timeline.port.ts';
export { foldTimelineMessage } from './message-timeline.port.ts';
export { DuplicateKeyError } from './read-store.port.ts';
export {
  checkFindOptions,
  parseCondition,
  rangeBounds,
  type ParsedCondition,
  type RangeBound,
  type Scalar,
} from './filter-language.ts';
export type * from './blob-store.port.ts';
export type * from './rate-limit.port.ts';
export type * from './realtime-scaling.port.ts';
export type * from './clock.port.ts';
export type * from './metrics.port.ts';
export type * from './tracing.port.ts';
export type * from './push-delivery.port.ts';
export type * from './ports.ts';
export type * from './service.port.ts';
