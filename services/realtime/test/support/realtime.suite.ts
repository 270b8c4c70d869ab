import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { RealtimeCluster } from './harness.ts';
import { describeAccess } from './suite-access.ts';
import { describeCalls } from './suite-calls.ts';
import { describeDelivery } from './suite-delivery.ts';
import { describeLastSeen } from './suite-last-seen.ts';
import { describeLinks } from './suite-link.ts';
import { describePresence } from './suite-presence.ts';
import { describeQuotes } from './suite-quotes.ts';
import { createWorld } from './suite-world.ts';

/**
 * The realtime gateway's behaviour, written once (the redis-adapter "default test suite" idea)
 * and run on one node with in-memory state (realtime.int.test.ts) and on two replicas sharing
 * Redis over NATS (realtime.e2e.test.ts). Clients are spread round-robin over the nodes, so in
 * the cluster run the parties of every scenario sit on different replicas.
 */
export const describeRealtimeSuite = (name: string, setup: () => Promise<RealtimeCluster>) => {
  describe(name, () => {
    let cluster: RealtimeCluster | undefined;
    const current = () => {
      if (!cluster) throw new Error('cluster not started');
      return cluster;
    };
    const world = createWorld(current);

    beforeAll(async () => {
      cluster = await setup();
    });
    afterEach(() => world.closeAll());
    afterAll(async () => {
      await cluster?.teardown();
    });

    describeDelivery(world, current);
    describeQuotes(world, current);
    describePresence(world, current);
    describeLastSeen(world);
    describeAccess(world, current);
    describeLinks(world);
    describeCalls(world, current);
  });
};
