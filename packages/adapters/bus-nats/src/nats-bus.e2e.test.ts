import { jetstreamManager } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { contexts, jetStreamName } from '@veil/contracts';
import { describeEventBusContract, describeRpcContract, testEvent } from '@veil/ports/contract';
import type { Logger } from '@veil/ports';
import { natsUrl, startRestartableNats, uniquePrefix } from '@veil/test-env';
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

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('a NATS server killed and started again', () => {
  it('a follow resumes after the last event it handled: every event once, in order', async () => {
    // A server of this test's own, on the same port and store when it comes back.
    const nats = await startRestartableNats();
    const connection = await connectNats({ servers: nats.url });
    try {
      const bus = await createNatsBus({ connection, prefix: randomPrefix(), log: quiet });
      for (let n = 0; n < 20; n++) await bus.append('chat', testEvent(`s-${n % 3}`));
      const handled: number[] = [];
      // Slow enough that the restart finds events fetched but not handled yet.
      await bus.follow({
        context: 'chat',
        afterPosition: 0,
        handler: async ({ position }) => {
          await new Promise((resolve) => setTimeout(resolve, 25));
          handled.push(position);
        },
      });
      await until('a few events handled', () => handled.length >= 3);
      await nats.kill();
      await nats.start();
      for (let n = 0; n < 10; n++) await bus.append('chat', testEvent(`after-${n}`));
      await until('every event handled', () => handled.length >= 30);
      // Nothing further is coming that could be a repeat.
      await bus.append('chat', testEvent('last'));
      await until('the last event handled', () => handled.includes(31));
      expect(handled).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
      await bus.close();
    } finally {
      await connection.close();
      await nats.stop();
    }
  }, 60_000);
});
