import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from '@veil/bus-nats';
import { contexts, jetStreamName } from '@veil/contracts';
import { deleteRedisKeysUnder } from '@veil/test-env';

/**
 * Removes what a throwaway Veil (a test run, a benchmark's cluster) left on the shared NATS and
 * Redis: its streams and its keys, found by the VEIL_STREAM_PREFIX it ran with.
 */
export const deleteStreams = async (url: string, prefix: string) => {
  const connection = await connectNats({ servers: url });
  const jsm = await jetstreamManager(connection);
  for (const context of contexts) await jsm.streams.delete(jetStreamName(prefix, context)).catch(() => false);
  await connection.drain();
};

/** ...and the Redis keys it made (throttling counters, presence, fan-out claims). */
export const deleteRedisKeys = (url: string, prefix: string) => deleteRedisKeysUnder(url, `${prefix}:`);
