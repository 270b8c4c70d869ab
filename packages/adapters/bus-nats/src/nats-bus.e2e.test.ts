import { jetstreamManager } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { contexts, jetStreamName } from '@veil/contracts';
import { describeEventBusContract, describeRpcContract, testEvent } from '@veil/ports/contract';
import type { Logger } from '@veil/ports';
import { natsUrl, uniquePrefix } from '@veil/test-env';
import { connectNats } from './connection.ts';
import { createNatsBus } from './nats-bus.ts';
import { createNatsRpc } from './nats-rpc.ts';
import { ensureStream } from './provisioning.ts';

/** Runs against the real NATS server at NATS_URL; each test gets its own random prefix. */
const url = natsUrl();
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
const randomPrefix = () => uniquePrefix('t');

const dropStreams = async (connection: Awaited<ReturnType<typeof connectNats>>, prefix: string) => {
  const jsm = await jetstreamManager(connection);
  for (const context of contexts) await jsm.streams.delete(jetStreamName(prefix, context)).catch(() => false);
};

describeEventBusContract('NATS JetStream', async () => {
  const prefix = randomPrefix();
  const connection = await connectNats({ servers: url });
  const bus = await createNatsBus({ connection, prefix, log: quiet });
  const opened = [bus];
  return {
    bus,
    reopen: async () => {
      const again = await createNatsBus({ connection, prefix, log: quiet });
      opened.push(again);
      return again;
    },
    teardown: async () => {
      for (const b of opened) await b.close();
      await dropStreams(connection, prefix);
      await connection.drain();
    },
  };
});

describeRpcContract('NATS request/reply', async () => {
  const prefix = randomPrefix();
  const [a, b] = await Promise.all([connectNats({ servers: url }), connectNats({ servers: url })]);
  return {
    rpcs: [
      createNatsRpc({ connection: a, prefix, log: quiet }),
      createNatsRpc({ connection: b, prefix, log: quiet }),
    ],
    teardown: async () => {
      await Promise.all([a.drain(), b.drain()]);
    },
  };
});

describe('JetStream provisioning', () => {
  it('creates streams that never drop events, idempotently', async () => {
    const prefix = randomPrefix();
    const connection = await connectNats({ servers: url });
    const jsm = await jetstreamManager(connection);
    await ensureStream(jsm, prefix, 'chat');
    await ensureStream(jsm, prefix, 'chat');
    const { config } = await jsm.streams.info(jetStreamName(prefix, 'chat'));
    expect(config).toMatchObject({
      storage: 'file',
      retention: 'limits',
      discard: 'new',
      max_msgs: -1,
      max_bytes: -1,
      max_age: 0,
    });
    expect(config.duplicate_window).toBeGreaterThan(0);
    await dropStreams(connection, prefix);
    await connection.drain();
  });
});

describe('JetStream refusals', () => {
  it('answers an append the stream refuses (a limit reached) with UNAVAILABLE, and stores nothing', async () => {
    const prefix = randomPrefix();
    const connection = await connectNats({ servers: url });
    const bus = await createNatsBus({ connection, prefix, log: quiet });
    await bus.append('chat', testEvent('full-1'));
    const jsm = await jetstreamManager(connection);
    await jsm.streams.update(jetStreamName(prefix, 'chat'), { max_msgs: 1 });
    await expect(bus.append('chat', testEvent('full-2'))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(await bus.headPosition('chat')).toBe(1);
    await bus.close();
    await dropStreams(connection, prefix);
    await connection.drain();
  });
});
