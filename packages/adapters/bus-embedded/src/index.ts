export { createEmbeddedBus, type EmbeddedBusOptions } from './embedded-bus.ts';
export { createEmbeddedRpc } from './embedded-rpc.ts';
