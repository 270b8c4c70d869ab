// Contract suites: one per port, run by every adapter of that port (see docs/testing.md).
export {
  describeEventBusContract,
  describeRpcContract,
  testData,
  testEvent,
  type BusUnderTest,
  type RpcUnderTest,
} from './event-bus.contract.ts';
export { describeReadStoreContract } from './read-store.contract.ts';
export type { ReadStoreUnderTest } from './read-store-under-test.ts';
export { describeBlobStoreContract } from './blob-store.contract.ts';
export { describeRateLimitsContract, type RateLimitsUnderTest } from './rate-limits.contract.ts';
export { describePresenceContract, type PresenceUnderTest } from './presence.contract.ts';
export { describeExpiringRecordsContract, type RecordsUnderTest } from './expiring-records.contract.ts';
export {
  describeMessageTimelineContract,
  type MessageTimelineUnderTest,
} from './message-timeline.contract.ts';
