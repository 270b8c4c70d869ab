import { ulid } from 'ulid';
import { deleteRedisKeysUnder, redisUrl } from '@veil/test-env';

/** A random key prefix per test run, and a cleanup that deletes every key under it. */
export const randomRedisPrefix = (): string => `veil-test:${ulid()}:`;

export const deleteRedisKeys = (prefix: string): Promise<void> => deleteRedisKeysUnder(redisUrl(), prefix);
