import { Redis } from 'ioredis';
import { createAdapter } from '@socket.io/redis-adapter';
import { DomainError } from '@veil/contracts';
import type { Logger } from '@veil/ports';

/**
 * The three connections one replica holds: `pub` and `sub` for the Socket.IO adapter (a
 * subscribed connection can run nothing else), `data` for presence and shared records.
 */
export interface RedisClients {
  pub: Redis;
  sub: Redis;
  data: Redis;
  /** The Socket.IO adapter factory over pub/sub; channels live under the key prefix. */
  adapter: ReturnType<typeof createAdapter>;
  quit(): Promise<void>;
}

const readyWithin = (client: Redis, timeoutMs: number) =>
  new Promise<void>((resolve, reject) => {
    if (client.status === 'ready') return resolve();
    const timer = setTimeout(() => {
      cleanup();
      reject(new DomainError('UNAVAILABLE', `Redis not reachable within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });

export const connectRedis = async (options: {
  url: string;
  keyPrefix: string;
  log: Logger;
  timeoutMs?: number;
}): Promise<RedisClients> => {
  const { url, log } = options;
  const make = (role: string) => {
    const client = new Redis(url, {
      connectionName: `veil-realtime-${role}`,
      // Commands issued in one event-loop turn leave in one write: under load, one syscall for
      // a burst of broadcasts and fan-out claims instead of one each (writes dominated profiles).
      enableAutoPipelining: role !== 'sub',
    });
    // Without a listener ioredis prints every reconnect error; log them once per role instead.
    let lastError = '';
    client.on('error', (error: Error) => {
      if (error.message !== lastError) log.warn({ err: error, role }, 'redis connection error');
      lastError = error.message;
    });
    client.on('ready', () => (lastError = ''));
    return client;
  };
  const pub = make('pub');
  const sub = make('sub');
  const data = make('data');
  const quit = async () => {
    await Promise.allSettled([pub, sub, data].map((c) => c.quit().catch(() => c.disconnect())));
  };
  try {
    await Promise.all([pub, sub, data].map((c) => readyWithin(c, options.timeoutMs ?? 15_000)));
  } catch (error) {
    await quit();
    throw error;
  }
  const adapter = createAdapter(pub, sub, { key: `${options.keyPrefix}sio` });
  return { pub, sub, data, adapter, quit };
};
