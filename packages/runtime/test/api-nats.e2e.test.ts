import { describe } from 'vitest';
import { natsUrl, redisUrl, uniquePrefix } from '@veil/test-env';
import { accountsSuite } from './suites/accounts.suite.ts';
import { messagingSuite } from './suites/messaging.suite.ts';
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
describe('chats and messages (NATS + Redis)', () => messagingSuite(withNats()));
describe('sending over the socket (NATS + Redis)', () => socketSendSuite(withNats()));
