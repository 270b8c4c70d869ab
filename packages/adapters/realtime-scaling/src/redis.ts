import type { Logger, RealtimeScaling } from '@veil/ports';
import { connectRedis, type RedisClients } from './redis-clients.ts';
import { createRedisPresence } from './redis-presence.ts';
import { createRedisRecords } from './redis-records.ts';

/**
 * Any number of realtime replicas: the Socket.IO Redis adapter carries broadcasts between them
 * and presence and shared records live in Redis. The three connections open on first use, so a process that runs
 * no realtime gateway never opens them. Keys and channels live under `keyPrefix`.
 */
export const createRedisScaling = (options: {
  url: string;
  keyPrefix: string;
  log: Logger;
}): RealtimeScaling => {
  const keyPrefix = options.keyPrefix.endsWith(':') ? options.keyPrefix : `${options.keyPrefix}:`;
  let clients: Promise<RedisClients> | null = null;
  const connected = () => (clients ??= connectRedis({ url: options.url, keyPrefix, log: options.log }));
  return {
    socketAdapter: async () => (await connected()).adapter,
    presence: async ({ instanceId, ttlSeconds, now, log }) =>
      createRedisPresence({ redis: (await connected()).data, keyPrefix, instanceId, ttlSeconds, now, log }),
    records: async (namespace) =>
      createRedisRecords({ redis: (await connected()).data, keyPrefix, namespace }),
    async close() {
      if (clients) await (await clients.catch(() => null))?.quit();
    },
  };
};
