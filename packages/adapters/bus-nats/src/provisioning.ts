import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { contextSubjects, jetStreamName } from '@veil/contracts';

/**
 * Streams are provisioned apart from their use (nats.js' jetstreamManager vs jetstream): at
 * start, idempotently. The config is the product's durability promise:
 *  - file storage, limits retention with no limit on count, bytes or age, so nothing is ever
 *    removed; `discard: new` means a full disk refuses new appends instead of dropping old ones;
 *  - a duplicate window so a retried publish with the same event id is stored once;
 *  - direct get for cheap reads of one stream's events.
 * Per-write fsync is a server setting, not a stream setting: nats-server defaults to a periodic
 * sync, so deployments run it with `jetstream { sync_interval: always }` (the Helm chart does).
 */
const TWO_MINUTES_NS = 120 * 1_000_000_000;

export const streamConfig = (prefix: string, context: string): Partial<StreamConfig> & { name: string } => ({
  name: jetStreamName(prefix, context),
  subjects: [contextSubjects(prefix, context)],
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  discard: DiscardPolicy.New,
  max_msgs: -1,
  max_bytes: -1,
  max_age: 0,
  max_msgs_per_subject: -1,
  duplicate_window: TWO_MINUTES_NS,
  allow_direct: true,
  num_replicas: 1,
});

export const ensureStream = async (jsm: JetStreamManager, prefix: string, context: string, replicas = 1) => {
  const config = { ...streamConfig(prefix, context), num_replicas: replicas };
  try {
    const info = await jsm.streams.info(config.name);
    const { storage: _storage, retention: _retention, ...updatable } = config;
    const drifted = Object.entries(updatable).some(
      ([key, value]) =>
        JSON.stringify((info.config as unknown as Record<string, unknown>)[key]) !== JSON.stringify(value),
    );
    if (drifted) await jsm.streams.update(config.name, updatable);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
    await jsm.streams.add(config);
  }
};
