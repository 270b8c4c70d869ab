import { Redis } from 'ioredis';
import { ulid } from 'ulid';
import { redisUrl } from '@veil/test-env';

/** A random key prefix per test run, and a cleanup that deletes every key under it. */
export const randomRedisPrefix = (): string => `veil-test:${ulid()}:`;

export const deleteRedisKeys = async (prefix: string): Promise<void> => {
  const redis = new Redis(redisUrl());
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
};
