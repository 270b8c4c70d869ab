import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { Redis } from 'ioredis';
import { connectNats } from '@veil/bus-nats';
import { contexts, jetStreamName } from '@veil/contracts';
import { startVeil, type RunningVeil, type StartVeilOptions } from '../../src/index.ts';

/** A whole Veil (embedded adapters unless `env` says otherwise) in a fresh temp dir. */
export interface TestVeil extends RunningVeil {
  dataDir: string;
  /** Stops and starts again on the same data dir (a restart). */
  restart(): Promise<TestVeil>;
  destroy(): Promise<void>;
}

export const startTestVeil = async (
  options: Partial<StartVeilOptions> = {},
  dataDir?: string,
): Promise<TestVeil> => {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'veil-test-')));
  const veil = await startVeil({ ...options, dataDir: dir });
  return {
    ...veil,
    dataDir: dir,
    async restart() {
      await veil.stop();
      return startTestVeil(options, dir);
    },
    async destroy() {
      await veil.stop();
      await rm(dir, { recursive: true, force: true });
      const prefix = options.env?.VEIL_STREAM_PREFIX ?? 'veil';
      if (options.env?.NATS_URL) await deleteStreams(options.env.NATS_URL, prefix);
      if (options.env?.REDIS_URL) await deleteRedisKeys(options.env.REDIS_URL, prefix);
    },
  };
};

/** Test runs use a random prefix; their streams go when the run ends. */
export const deleteStreams = async (url: string, prefix: string) => {
  const connection = await connectNats({ servers: url });
  const jsm = await jetstreamManager(connection);
  for (const context of contexts) await jsm.streams.delete(jetStreamName(prefix, context)).catch(() => false);
  await connection.drain();
};

/** ...and so do the Redis keys they made (throttling counters, presence, fan-out claims). */
export const deleteRedisKeys = async (url: string, prefix: string) => {
  const redis = new Redis(url);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
};
