import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisScaling } from '@veil/realtime-scaling/redis';
import { redisUrl } from '@veil/test-env';
import { startFakeMessageService, type FakeMessageService } from './support/fake-message-service.ts';
import {
  linkTtlSeconds,
  newTokenKeys,
  startRealtimeNode,
  testOrigin,
  type RealtimeCluster,
  type RunningNode,
} from './support/harness.ts';
import { describeRealtimeSuite } from './support/realtime.suite.ts';
import { deleteRedisKeys, randomRedisPrefix } from './support/redis-test-keys.ts';
import { spawnReplica, type ReplicaProcess } from './support/spawn-replica.ts';
import { describeQuotesFromBeforeStart } from './support/suite-quotes-before-start.ts';
import { createWorld } from './support/suite-world.ts';
import { natsPorts, randomNatsPrefix } from './support/test-adapters.ts';
import { testLogger } from './support/test-logger.ts';

/**
 * Real NATS JetStream and real Redis on loopback; each replica has its own NATS connection, its
 * own Redis clients and its own HTTP server, as separate pods would.
 */
const startCluster = async (replicas: number, presenceTtlSeconds = 15) => {
  const log = testLogger();
  const natsPrefix = randomNatsPrefix();
  const redisKeyPrefix = randomRedisPrefix();
  const keys = await newTokenKeys();
  const closers: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await deleteRedisKeys(redisKeyPrefix);
  };
  try {
    const driver = await natsPorts(natsPrefix, log, 'test-driver');
    closers.push(async () => {
      await driver.dropStreams();
      await driver.close();
    });
    const service = await natsPorts(natsPrefix, log, 'fake-message-service');
    closers.push(() => service.close());
    const messageService: FakeMessageService = await startFakeMessageService(service.bus, service.rpc);
    closers.push(() => messageService.stop());
    const nodes: RunningNode[] = [];
    for (let i = 0; i < replicas; i += 1) {
      const ports = await natsPorts(natsPrefix, log, `realtime-${i}`);
      closers.push(() => ports.close());
      const node = await startRealtimeNode({
        bus: ports.bus,
        rpc: ports.rpc,
        log: log.child({ replica: i }),
        settings: {
          allowedOrigins: [testOrigin],
          accessTokenPublicJwk: keys.publicJwk,
          instanceId: `replica-${i}`,
          presenceTtlSeconds,
          linkTtlSeconds,
        },
        scaling: createRedisScaling({ url: redisUrl(), keyPrefix: redisKeyPrefix, log }),
      });
      closers.push(() => node.stop());
      nodes.push(node);
    }
    const cluster: RealtimeCluster = {
      nodes: nodes.map((n) => n.url),
      bus: driver.bus,
      keys,
      messageService,
      teardown,
    };
    return { cluster, natsPrefix, redisKeyPrefix };
  } catch (error) {
    await teardown();
    throw error;
  }
};

describeRealtimeSuite(
  'realtime gateway, two replicas (NATS + Redis adapter)',
  async () => (await startCluster(2)).cluster,
);

describe('realtime gateway, a replica crashes', () => {
  const ttl = 2;
  let setup: Awaited<ReturnType<typeof startCluster>>;
  let crashed: ReplicaProcess | undefined;
  const world = createWorld(() => setup.cluster);

  beforeAll(async () => {
    setup = await startCluster(1, ttl);
  });
  afterAll(async () => {
    world.closeAll();
    await crashed?.kill();
    await setup?.cluster.teardown();
  });

  it("announces the crashed replica's users offline to their contacts on a live replica, last seen at the sweep", async () => {
    crashed = await spawnReplica({
      natsPrefix: setup.natsPrefix,
      redisUrl: redisUrl(),
      redisKeyPrefix: setup.redisKeyPrefix,
      presenceTtlSeconds: ttl,
      instanceId: 'doomed',
      publicJwk: setup.cluster.keys.publicJwk,
      allowedOrigins: [testOrigin],
    });
    const [dave, erin] = world.users(2) as [string, string];
    await world.direct(dave, erin);
    const e = await world.connect(erin, 0); // the live, in-process replica
    setup.cluster.nodes.push(crashed.url);
    const d = await world.connect(dave, 1); // the child process
    await world.seesOnline(e, dave);

    const killedAt = Date.now();
    await crashed.kill();
    // Bound: TTL plus one sweep period (~2.7 s here); the event timeout (10 s) is the assertion.
    expect((await e.next('offline'))[0]).toBe(dave);
    // Last seen when the live replica swept the dead one's entries.
    const [{ at }] = await e.next('last seen', (n) => n.userId === dave);
    expect(Date.parse(at!)).toBeGreaterThanOrEqual(killedAt);
    expect(await d.disconnected).toBe('transport close');
  });
});

describeQuotesFromBeforeStart('realtime gateway on NATS, a quote from before it started', async (log) => {
  const ports = await natsPorts(randomNatsPrefix(), log, 'quotes-before-start');
  return {
    ...ports,
    async close() {
      await ports.dropStreams();
      await ports.close();
    },
  };
});
