export { connectNats, type NatsConnection } from './connection.ts';
export { createNatsBus, type NatsBusOptions } from './nats-bus.ts';
export { createNatsRpc } from './nats-rpc.ts';
export { ensureStream, streamConfig } from './provisioning.ts';
