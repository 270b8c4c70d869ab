import { jetstreamManager } from '@nats-io/jetstream';
import { describe } from 'vitest';
import { connectNats } from '@veil/bus-nats';
import { jetStreamName } from '@veil/contracts';
import { natsUrl, redisUrl, uniquePrefix } from '@veil/test-env';
import { accountsSuite } from './suites/accounts.suite.ts';
import { groupsSuite } from './suites/groups.suite.ts';
import { keyBackupSuite } from './suites/key-backup.suite.ts';
import { disappearingSuite } from './suites/disappearing.suite.ts';
import { messageChangesSuite } from './suites/message-changes.suite.ts';
import { messagingSuite } from './suites/messaging.suite.ts';
import { privacySuite } from './suites/privacy.suite.ts';
import { blockingSuite } from './suites/blocking.suite.ts';
import { reportsSuite } from './suites/reports.suite.ts';
import { metricsSuite } from './suites/metrics.suite.ts';
import { socketChangesSuite } from './suites/socket-changes.suite.ts';
import { socketSendSuite } from './suites/socket-send.suite.ts';

/**
 * The same API suites with the cluster adapters: NATS JetStream for events and RPC, Redis for
 * throttling and sockets. A random prefix keeps each run's streams and keys apart.
 */
const withNats = () => ({
  env: {
    NATS_URL: natsUrl(),
    REDIS_URL: redisUrl(),
    VEIL_STREAM_PREFIX: uniquePrefix('t'),
  },
});

describe('accounts (NATS + Redis)', () => accountsSuite(withNats()));
describe('encrypted key backup (NATS + Redis)', () => keyBackupSuite(withNats()));
/**
 * JetStream forgets a published event id after the stream's duplicate window (two minutes in
 * production). Shrinking the window and waiting it out is that, without the wait.
 */
const forgetStoredEventIds = (url: string, prefix: string) => async () => {
  const connection = await connectNats({ servers: url });
  const jsm = await jetstreamManager(connection);
  const name = jetStreamName(prefix, 'message');
  const { config } = await jsm.streams.info(name);
  await jsm.streams.update(name, { duplicate_window: 100_000_000 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await jsm.streams.update(name, { duplicate_window: config.duplicate_window });
  await connection.drain();
};

describe('chats and messages (NATS + Redis)', () => {
  const options = withNats();
  messagingSuite(options, {
    forgetStoredEventIds: forgetStoredEventIds(options.env.NATS_URL, options.env.VEIL_STREAM_PREFIX),
  });
});
describe('sending over the socket (NATS + Redis)', () => socketSendSuite(withNats()));
describe('editing, deleting and reacting (NATS + Redis)', () => messageChangesSuite(withNats()));
describe('editing, deleting and reacting over the socket (NATS + Redis)', () =>
  socketChangesSuite(withNats()));
describe('disappearing messages (NATS + Redis)', () => disappearingSuite(withNats()));
describe('groups (NATS + Redis)', () => groupsSuite(withNats()));
describe('privacy switches (NATS + Redis)', () => privacySuite(withNats()));
describe('blocking (NATS + Redis)', () => blockingSuite(withNats()));
describe('abuse reports and operators (NATS + Redis)', () => reportsSuite(withNats()));
describe('metrics (NATS + Redis)', () => metricsSuite('jetstream', withNats()));
