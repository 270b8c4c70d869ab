export {
  createEmbeddedBus,
  type EmbeddedBus,
  type EmbeddedBusOptions,
  type SharedLogFile,
} from './embedded-bus.ts';
export type { CommitEncoder } from './inline-projections.ts';
export { createEmbeddedRpc } from './embedded-rpc.ts';
