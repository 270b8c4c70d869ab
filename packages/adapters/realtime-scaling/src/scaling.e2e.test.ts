import { describeExpiringRecordsContract, describePresenceContract } from '@veil/ports/contract';
import type { Logger, PresenceStore } from '@veil/ports';
import { deleteRedisKeysUnder, redisUrl, uniquePrefix } from '@veil/test-env';
import { createMemoryPresence } from './memory.ts';
import { createRedisScaling } from './redis.ts';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

describePresenceContract(
  'memory',
  async () => ({ replicas: [createMemoryPresence()], teardown: async () => {} }),
  { sharedByReplicas: false },
);

/** Two replicas' scaling on the test run's Redis, each with its own connections. */
describePresenceContract(
  'Redis',
  async () => {
    const keyPrefix = `${uniquePrefix('rt')}:`;
    const scalings = ['a', 'b'].map(() => createRedisScaling({ url: redisUrl(), keyPrefix, log: quiet }));
    const replicas: PresenceStore[] = [];
    for (const [i, scaling] of scalings.entries()) {
      const store = await scaling.presence({
        instanceId: `replica-${i}`,
        ttlSeconds: 30,
        now: Date.now,
        log: quiet,
      });
      await store.start(
        () => {},
        () => {},
      );
      replicas.push(store);
    }
    return {
      replicas,
      teardown: async () => {
        await Promise.all(replicas.map((r) => r.stop()));
        await Promise.all(scalings.map((s) => s.close()));
        await deleteRedisKeysUnder(redisUrl(), keyPrefix);
      },
    };
  },
  { sharedByReplicas: true },
);

/** Two replicas' views of one namespace on the test run's Redis, each with its own connections. */
describeExpiringRecordsContract('Redis', async () => {
  const keyPrefix = `${uniquePrefix('rt')}:`;
  const scalings = ['a', 'b'].map(() => createRedisScaling({ url: redisUrl(), keyPrefix, log: quiet }));
  return {
    replicas: await Promise.all(scalings.map((scaling) => scaling.records('contract'))),
    teardown: async () => {
      await Promise.all(scalings.map((s) => s.close()));
      await deleteRedisKeysUnder(redisUrl(), keyPrefix);
    },
  };
});
