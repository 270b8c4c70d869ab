import { describeRateLimitsContract } from '@veil/ports/contract';
import { createMemoryRateLimits } from './memory.ts';
import { createRedisRateLimits } from './redis.ts';

describeRateLimitsContract('memory', async () => {
  const limits = createMemoryRateLimits();
  return { replicas: [limits, limits], teardown: () => limits.close() };
});

/** Two clients on the real Redis at REDIS_URL: two replicas' worth. A random prefix per run. */
describeRateLimitsContract('Redis', async () => {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `t${Math.random().toString(36).slice(2, 10)}`;
  const replicas = [createRedisRateLimits({ url, prefix }), createRedisRateLimits({ url, prefix })] as const;
  return {
    replicas: [...replicas],
    teardown: async () => {
      await Promise.all(replicas.map((r) => r.close()));
    },
  };
});
