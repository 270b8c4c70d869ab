import { describe, expect, it } from 'vitest';
import { allClusterPortOffsets } from '@veil/app/cluster-ports';
import { freePortBlock } from '@veil/test-env';
import { runDelivery, usingTarget, veilTarget, type DeliveryOptions } from './delivery.ts';
import { startVeilCluster } from './veil-process.ts';

/**
 * Keeps the cluster half of the harness working: `npm run cluster` on the real NATS and Redis,
 * sockets spread over both realtime replicas, every message accounted for. No timing asserted.
 */
describe('benchmark harness, cluster mode (quick)', () => {
  it('accounts for every message across two realtime replicas, sent over sockets and over HTTP', async () => {
    const cluster = await startVeilCluster(await freePortBlock(allClusterPortOffsets));
    try {
      for (const sendOver of ['socket', 'http'] as const) {
        const options: DeliveryOptions = {
          users: 12,
          rate: 20,
          durationSeconds: 1,
          warmupSeconds: 0.5,
          groupSize: 5,
          sendOver,
        };
        const result = await usingTarget(await veilTarget(cluster, options), (target) =>
          runDelivery(target, options),
        );
        expect(result, sendOver).toMatchObject({ sent: 20, lost: 0, duplicated: 0, failedSends: 0 });
      }
    } finally {
      await cluster.stop();
    }
  }, 180_000);
});
