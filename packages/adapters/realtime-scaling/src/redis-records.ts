import type { Redis } from 'ioredis';
import type { ExpiringRecords } from '@veil/ports';
import { script } from './redis-script.ts';

/**
 * Records shared by every replica: one hash per record, `P rec:<namespace>:<key>` with fields
 * `v` (version) and `value`, expiring with the key. Create and replace are Lua scripts, so two
 * replicas deciding on the same record at once cannot both win.
 */
const createScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'value', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** HSET keeps the key's expiry, so a replaced record still ends when it was due to. */
const replaceScript = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(ARGV[1]) + 1, 'value', ARGV[2])
return 1
`;

export const createRedisRecords = (options: {
  redis: Redis;
  keyPrefix: string;
  namespace: string;
}): ExpiringRecords => {
  const { redis } = options;
  const keyOf = (key: string) => `${options.keyPrefix}rec:${options.namespace}:${key}`;
  const run = { create: script(redis, createScript), replace: script(redis, replaceScript) };
  return {
    async create(key, value, ttlMs) {
      return (await run.create([keyOf(key)], [value, Math.max(1, Math.round(ttlMs))])) === 1;
    },
    async read(key) {
      const [version, value] = await redis.hmget(keyOf(key), 'v', 'value');
      return version == null || value == null ? null : { value, version: Number(version) };
    },
    async replace(key, version, value) {
      return (await run.replace([keyOf(key)], [String(version), value])) === 1;
    },
  };
};
