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
    reconnectTimeWait: 1_000,
  });

export type { NatsConnection };
