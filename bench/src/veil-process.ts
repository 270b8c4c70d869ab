import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { veilNodeFlags } from '@veil/app';
import { allClusterPortOffsets } from '@veil/app/cluster-ports';
import { deleteRedisKeys, deleteStreams } from '@veil/app/testing';
import { uniquePrefix } from '@veil/test-env';
import { spawnServer } from './server-process.ts';

/**
 * Veil under test runs in its own processes, so the load generator does not share their event
 * loops: embedded mode is `npm start`'s entry point (one process), cluster mode is
 * `npm run cluster` (seven processes on NATS and Redis, two realtime replicas).
 */
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface VeilProcess {
  /** The API (and, in embedded mode, the sockets). */
  url: string;
  /** Where clients open sockets: the one process, or each realtime replica. */
  socketUrls: string[];
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** Veil's own data directory, removed when it stops. */
const spawnVeil = async (
  entry: string,
  port: number,
  readyUrls: string[],
  env: Record<string, string>,
  stopSignal: NodeJS.Signals,
) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-bench-'));
  const server = await spawnServer(
    entry,
    readyUrls,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      LOGIN_ATTEMPTS_PER_IP: '1000000',
      WRITES_PER_USER_PER_MINUTE: '1000000',
      WRITES_PER_IP_PER_MINUTE: '1000000',
      // A capacity sweep outlives the default 15-minute token, and Veil closes a socket whose
      // token has expired: the longest lifetime Veil allows keeps the load's sockets open.
      ACCESS_TOKEN_TTL_SECONDS: '86400',
      // Setting up the load hashes a password per registration and login, two at a time: on a
      // loaded machine a login waits in that queue longer than the default 5 s RPC timeout.
      RPC_TIMEOUT_MS: '30000',
      ...env,
    },
    stopSignal,
    veilNodeFlags,
  );
  return {
    pid: server.pid,
    dataDir,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export const startVeilProcess = async (
  port: number,
  env: Record<string, string> = {},
): Promise<VeilProcess> => {
  const url = `http://127.0.0.1:${port}`;
  const veil = await spawnVeil('apps/veil/src/bin/veil.ts', port, [url], env, 'SIGTERM');
  return { url, socketUrls: [url], ...veil };
};

/**
 * The cluster on its own stream and key prefix, removed again when it stops; on the machine's NATS
 * and Redis unless a run brings its own.
 */
export const startVeilCluster = async (
  port: number,
  servers: { natsUrl: string; redisUrl: string } = { natsUrl, redisUrl },
): Promise<VeilProcess> => {
  const portOf = (offset: number) => `http://127.0.0.1:${port + offset}`;
  const prefix = uniquePrefix('bench');
  const cluster = await spawnVeil(
    'apps/veil/src/bin/cluster.ts',
    port,
    allClusterPortOffsets.map(portOf),
    { VEIL_STREAM_PREFIX: prefix, NATS_URL: servers.natsUrl, REDIS_URL: servers.redisUrl },
    'SIGINT',
  );
  return {
    url: portOf(0),
    // Clients reach the replicas directly, as behind a load balancer: half the users on each, so
    // every delivery to the other half crosses Redis.
    socketUrls: [portOf(1), portOf(2)],
    ...cluster,
    async stop() {
      await cluster.stop();
      await deleteStreams(servers.natsUrl, prefix);
      await deleteRedisKeys(servers.redisUrl, prefix);
    },
  };
};
