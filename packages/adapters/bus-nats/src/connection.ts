import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '@veil/ports';

interface Link {
  up: boolean;
  waiters: (() => void)[];
  /** Told every time the connection is back after a drop. */
  listeners: Set<() => void>;
}

/** Whether each connection is up, learnt from its status events. */
const links = new WeakMap<NatsConnection, Link>();

/**
 * Follows a connection's status: tells the operator when it drops and when it is back (the
 * client reconnects by itself), and wakes the requests waiting for it.
 */
const watchLink = async (connection: NatsConnection, link: Link, log?: Logger) => {
  for await (const status of connection.status()) {
    if (status.type === 'disconnect') {
      link.up = false;
      log?.warn({ server: status.server }, 'lost the connection to NATS; reconnecting');
    } else if (status.type === 'reconnect') {
      link.up = true;
      for (const wake of link.waiters.splice(0)) wake();
      for (const listener of link.listeners) listener();
      log?.info({ server: status.server }, 'reconnected to NATS');
    }
  }
};

/**
 * Resolves once the connection is up, or after `timeoutMs`. nats.js drops a request published
 * while it is reconnecting: the caller would wait out its whole timeout although the server was
 * back a moment later. Requests wait for the link first instead.
 */
export const untilConnected = (connection: NatsConnection, timeoutMs: number): Promise<void> => {
  const link = links.get(connection);
  if (!link || link.up) return Promise.resolve();
  return new Promise((resolve) => {
    link.waiters.push(resolve);
    setTimeout(resolve, timeoutMs).unref();
  });
};

/** Calls `listener` each time the connection is back after a drop; returns the way to stop. */
export const onReconnect = (connection: NatsConnection, listener: () => void): (() => void) => {
  const link = links.get(connection);
  link?.listeners.add(listener);
  return () => link?.listeners.delete(listener);
};

/** One connection per process, shared by the bus and RPC; its owner drains it on shutdown. */
export const connectNats = async (options: {
  servers: string | string[];
  name?: string;
  log?: Logger;
}): Promise<NatsConnection> => {
  const connection = await connect({
    servers: options.servers,
    ...(options.name ? { name: options.name } : {}),
    maxReconnectAttempts: -1,
    // The client would build an Error (stack capture) for every request just in case it times
    // out: 9 % of a busy gateway. Our RPC layer reports timeouts as UNAVAILABLE with the service
    // named, so those traces add nothing.
    noAsyncTraces: true,
    // A restarted server is found within a quarter second (plus up to 100 ms of jitter, so a
    // fleet does not arrive at once); a failed attempt on a local network costs next to nothing.
    reconnectTimeWait: 250,
    reconnectJitter: 100,
  });
  const link: Link = { up: true, waiters: [], listeners: new Set() };
  links.set(connection, link);
  void watchLink(connection, link, options.log);
  return connection;
};

export type { NatsConnection };
