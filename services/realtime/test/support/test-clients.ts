import type { ClientToServerEvents, ServerToClientEvents } from '@veil/contracts';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { io as connect, type Socket } from 'socket.io-client';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

type EventName = keyof ServerToClientEvents;
type ArgsOf<E extends EventName> = Parameters<ServerToClientEvents[E]>;

/** How long a test waits for an event before failing with a clear message (a bound, not a timing claim). */
export const eventTimeoutMs = 10_000;

/**
 * A real socket.io-client socket that records every event from its creation, so a test can
 * await an event that may already have arrived, and count events to prove "exactly once".
 */
export interface TestClient {
  socket: ClientSocket;
  userId: string;
  /** Every received `event`, oldest first. */
  all<E extends EventName>(event: E): ArgsOf<E>[];
  /** The first received `event` matching `match` (already received or still to come). */
  next<E extends EventName>(event: E, match?: (...args: ArgsOf<E>) => boolean): Promise<ArgsOf<E>>;
  /** Resolves on `disconnect` with its reason. */
  disconnected: Promise<string>;
  close(): void;
}

export interface ConnectOptions {
  token?: string;
  origin?: string;
}

const describeFor = (userId: string, event: string) => `${userId} waiting for "${event}"`;

export const openClient = (url: string, userId: string, options: ConnectOptions): TestClient => {
  const socket: ClientSocket = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    upgrade: false,
    reconnection: false,
    forceNew: true,
    timeout: eventTimeoutMs,
    auth: options.token === undefined ? {} : { token: options.token },
    ...(options.origin ? { extraHeaders: { origin: options.origin } } : {}),
  });
  const received: { event: string; args: unknown[] }[] = [];
  const waiters = new Set<() => void>();
  socket.onAny((event: string, ...args: unknown[]) => {
    received.push({ event, args });
    for (const waiter of [...waiters]) waiter();
  });
  const all = <E extends EventName>(event: E) =>
    received.filter((r) => r.event === event).map((r) => r.args as ArgsOf<E>);

  const next = <E extends EventName>(event: E, match: (...args: ArgsOf<E>) => boolean = () => true) =>
    new Promise<ArgsOf<E>>((resolve, reject) => {
      const check = () => {
        const found = all(event).find((args) => match(...args));
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${describeFor(userId, event)}: none within ${eventTimeoutMs} ms`));
      }, eventTimeoutMs);
      waiters.add(check);
      check();
    });

  return {
    socket,
    userId,
    all,
    next,
    disconnected: new Promise((resolve) => socket.on('disconnect', (reason) => resolve(reason))),
    close: () => void socket.disconnect(),
  };
};

/** Connects and resolves once the server accepted the socket; rejects with the refusal. */
export const connectClient = async (
  url: string,
  userId: string,
  options: ConnectOptions,
): Promise<TestClient> => {
  const client = openClient(url, userId, options);
  await new Promise<void>((resolve, reject) => {
    client.socket.once('connect', () => resolve());
    client.socket.once('connect_error', (error) => {
      client.close();
      reject(error);
    });
  });
  return client;
};

/**
 * The refusal a handshake ends with: the `{ code, message }` the server's middleware put in
 * connect_error's `data`. Any other connect_error (a server that is not there, a transport
 * error) rejects, so a test cannot take a failure for the refusal it expects.
 */
export const refusalOf = (url: string, options: ConnectOptions) =>
  new Promise<{ code: string; message: string }>((resolve, reject) => {
    const client = openClient(url, 'refused', options);
    client.socket.once('connect', () => {
      client.close();
      reject(new Error('the connection was accepted'));
    });
    client.socket.once('connect_error', (error: Error & { data?: { code?: unknown; message?: unknown } }) => {
      client.close();
      const { code, message } = error.data ?? {};
      if (typeof code === 'string' && typeof message === 'string') resolve({ code, message });
      else reject(new Error(`connect_error without a refusal code: ${error.message}`, { cause: error }));
    });
  });

/**
 * A websocket upgrade to Socket.IO's path, sent by hand so the test sees the HTTP answer a
 * refused upgrade gets (Engine.IO refuses before Socket.IO, with a status and a message, not a
 * code): `{ status, body }`, or `{ status: 101 }` when the upgrade is accepted.
 */
export const upgradeAnswer = (url: string, origin?: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(new URL('/socket.io/?EIO=4&transport=websocket', url), {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        ...(origin ? { origin } : {}),
      },
    });
    request.once('upgrade', (_res, socket) => {
      socket.destroy();
      resolve({ status: 101, body: '' });
    });
    request.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.once('error', reject);
    });
    request.once('error', reject);
    request.end();
  });
