import { describe } from 'vitest';
import { accountsSuite } from './suites/accounts.suite.ts';
import { messagingSuite } from './suites/messaging.suite.ts';
import { socketSendSuite } from './suites/socket-send.suite.ts';

/**
 * The same API suites with the cluster adapters: NATS JetStream for events and RPC, Redis for
 * throttling and sockets. A random prefix keeps each run's streams and keys apart.
 */
const withNats = () => ({
  env: {
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    VEIL_STREAM_PREFIX: `t${Math.random().toString(36).slice(2, 10)}`,
  },
});

describe('accounts (NATS + Redis)', () => accountsSuite(withNats()));
describe('chats and messages (NATS + Redis)', () => messagingSuite(withNats()));
describe('sending over the socket (NATS + Redis)', () => socketSendSuite(withNats()));
