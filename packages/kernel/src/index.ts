export * from './aggregate.ts';
export * from './context-bus.ts';
export * from './events.ts';
export * from './projection.ts';
export * from './staging.ts';
export * from './rpc-client.ts';
export * from './projected-service.ts';
export * from './projection-metrics.ts';
