/**
 * One realtime replica as its own process, for the crash test: real NATS, real Redis, its own
 * HTTP server. Usage: `node realtime-replica.ts '<json ReplicaConfig>'`.
 * Prints `READY <url>` once it accepts sockets. SIGTERM stops it cleanly; the test uses SIGKILL.
 */
import type { JWK } from 'jose';
import { createRedisScaling } from '@veil/realtime-scaling/redis';
import { startRealtimeNode } from './harness.ts';
import { natsPorts } from './test-adapters.ts';
import { testLogger } from './test-logger.ts';

export interface ReplicaConfig {
  natsPrefix: string;
  redisUrl: string;
  redisKeyPrefix: string;
  presenceTtlSeconds: number;
  instanceId: string;
  publicJwk: JWK;
  allowedOrigins: string[];
}

const config = JSON.parse(process.argv[2] ?? '{}') as ReplicaConfig;
const log = testLogger({ replica: config.instanceId });
const nats = await natsPorts(config.natsPrefix, log, config.instanceId);
const node = await startRealtimeNode({
  bus: nats.bus,
  rpc: nats.rpc,
  log,
  settings: {
    allowedOrigins: config.allowedOrigins,
    accessTokenPublicJwk: config.publicJwk,
    instanceId: config.instanceId,
    presenceTtlSeconds: config.presenceTtlSeconds,
  },
  scaling: createRedisScaling({ url: config.redisUrl, keyPrefix: config.redisKeyPrefix, log }),
});
process.stdout.write(`READY ${node.url}\n`);

process.once('SIGTERM', () => {
  void node
    .stop()
    .then(() => nats.close())
    .finally(() => process.exit(0));
});
