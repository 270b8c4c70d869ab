import { connect, type NatsConnection } from '@nats-io/transport-node';

/** One connection per process, shared by the bus and RPC; its owner drains it on shutdown. */
export const connectNats = (options: {
  servers: string | string[];
  name?: string;
}): Promise<NatsConnection> =>
  connect({
    servers: options.servers,
    ...(options.name ? { name: options.name } : {}),
    maxReconnectAttempts: -1,
    // The client would build an Error (stack capture) for every request just in case it times
    // out: 9 % of a busy gateway. Our RPC layer reports timeouts as UNAVAILABLE with the service
    // named, so those traces add nothing.
    noAsyncTraces: true,
    reconnectTimeWait: 1_000,
  });

export type { NatsConnection };
