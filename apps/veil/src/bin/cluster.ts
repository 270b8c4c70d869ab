import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateTokenKeyPair, type TokenKeyPair } from '@veil/tokens';
import { clusterPortOffsets as offsets } from '../cluster-ports.ts';
import { veilNodeFlags } from '../node-flags.ts';
import { supervise } from './supervisor.ts';

/**
 * `npm run cluster`: every service as its own OS process against the real NATS and Redis on
 * this machine (MongoDB and S3 too when MONGODB_URL / S3_ENDPOINT are set), the way the Helm
 * chart runs them: the API gateway on :8080 (PORT) forwarding /socket.io to two realtime
 * replicas on :8081 and :8082, and auth, user, chat and message each alone (health ports
 * 8091-8094). Every port is PORT plus a fixed offset (cluster-ports.ts), so a test can run a
 * second cluster. A process that dies is started again with a growing delay (`supervisor.ts`),
 * as Kubernetes would. Ctrl-C stops them all; each drains its NATS connection on the way out.
 */
const env = process.env;
const natsUrl = env.NATS_URL ?? 'nats://127.0.0.1:4222';
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dataDir = path.resolve(env.DATA_DIR ?? './data/cluster');
const gatewayPort = Number(env.PORT ?? 8080);
/**
 * Each service runs with Veil's V8 flags and this launcher's own Node flags (whatever it was
 * started with, such as the benchmark's `--cpu-prof`), so flags given to `npm run cluster` reach
 * the processes that do the work.
 */
const nodeFlags = [...veilNodeFlags, ...process.execArgv];

/** One key pair for the whole cluster: auth signs, the gateways verify. Kept across runs. */
const clusterKeys = async (): Promise<TokenKeyPair> => {
  const file = path.join(dataDir, 'access-token.jwk.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as TokenKeyPair;
  } catch {
    const pair = await generateTokenKeyPair();
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, JSON.stringify(pair), { mode: 0o600 });
    return pair;
  }
};

const main = async () => {
  const keys = await clusterKeys();
  const shared = {
    NATS_URL: natsUrl,
    REDIS_URL: redisUrl,
    JWT_PUBLIC_KEY: JSON.stringify(keys.publicJwk),
    ALLOWED_ORIGINS: env.ALLOWED_ORIGINS ?? `http://localhost:${gatewayPort},http://127.0.0.1:${gatewayPort}`,
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    // The processes write into pipes, which would mean JSON; what the launcher's own stdout is decides.
    LOG_FORMAT: env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    VEIL_STREAM_PREFIX: env.VEIL_STREAM_PREFIX ?? 'veil',
  };
  const realtimePorts = offsets.realtime.map((offset) => gatewayPort + offset);
  const processes: { name: string; instance?: string; port: number; extra?: Record<string, string> }[] = [
    {
      name: 'gateway',
      port: gatewayPort + offsets.gateway,
      extra: { REALTIME_UPSTREAMS: realtimePorts.map((port) => `http://127.0.0.1:${port}`).join(',') },
    },
    ...realtimePorts.map((port, i) => ({ name: 'realtime', instance: `realtime-${i + 1}`, port })),
    {
      name: 'auth',
      port: gatewayPort + offsets.auth,
      extra: { JWT_PRIVATE_KEY: JSON.stringify(keys.privateJwk) },
    },
    { name: 'user', port: gatewayPort + offsets.user },
    { name: 'chat', port: gatewayPort + offsets.chat },
    { name: 'message', port: gatewayPort + offsets.message },
  ];
  const cluster = supervise(
    processes.map(({ name, instance, port, extra }) => ({
      name: instance ?? name,
      command: process.execPath,
      args: [...nodeFlags, 'apps/veil/src/bin/veil.ts'],
      env: {
        ...env,
        ...shared,
        ...extra,
        VEIL_SERVICES: name,
        PORT: String(port),
        INSTANCE_ID: instance ?? name,
        DATA_DIR: path.join(dataDir, instance ?? name),
      },
    })),
  );
  // Ctrl-C reaches every process of the terminal's group; each also gets SIGTERM from here, so
  // a stop sent to this launcher alone (a service manager, a test) stops them all as well.
  const stop = () => void cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
};

void main();
