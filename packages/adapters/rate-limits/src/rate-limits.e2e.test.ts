import { describeRateLimitsContract } from '@veil/ports/contract';
import { redisUrl, uniquePrefix } from '@veil/test-env';
import { createMemoryRateLimits } from './memory.ts';
import { createRedisRateLimits } from './redis.ts';

describeRateLimitsContract('memory', async () => {
  const limits = createMemoryRateLimits();
  return { replicas: [limits, limits], teardown: () => limits.close() };
});

/** Two clients on the test run's Redis: two replicas' worth. A random prefix per run. */
describeRateLimitsContract('Redis', async () => {
  const url = redisUrl();
  const prefix = uniquePrefix('t');
  const replicas = [createRedisRateLimits({ url, prefix }), createRedisRateLimits({ url, prefix })] as const;
  return {
    replicas: [...replicas],
    teardown: async () => {
      await Promise.all(replicas.map((r) => r.close()));
    },
  };
});
