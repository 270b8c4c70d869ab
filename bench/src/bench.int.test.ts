import { readFileSync } from 'node:fs';
import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { freePort, freePortBlock } from '@veil/test-env';
import { runBench } from './bench.ts';
import { runDelivery, usingTarget } from './delivery.ts';
import { ejabberdTarget, ejabberdUnavailable, startEjabberd } from './ejabberd.ts';
import { startRelay } from './relay.ts';
import { runTimelineIndexBench } from './timeline-index-bench.ts';
import { connectSender } from './sender-socket.ts';

/**
 * Keeps the harness working (`npm run bench -- --quick`): every message is accounted for, on
 * Veil and on the relay, and the replay projects every message. No timing is asserted here;
 * timings belong in BENCHMARKS.md.
 */
describe('benchmark harness (quick)', () => {
  it('accounts for every message and every replayed event', async () => {
    const result = await runBench({
      quick: true,
      users: 12,
      rate: 20,
      durationSeconds: 1,
      warmupSeconds: 0.5,
      repeats: 1,
      modes: ['embedded'],
      sendOver: 'socket',
      capacityRates: [20, 10],
      budgetMs: 10_000,
      replayEvents: [500],
      logAppendConcurrency: [4],
      directoryUsers: [500],
      connectionSteps: [20],
      loginAccounts: 6,
      changes: 3,
      // The embedded Veil on port, the idle-socket server on port + 1, the login bench's on port + 3,
      // the relays on port + 200 and + 201.
      port: await freePortBlock([0, 1, 3, 200, 201]),
    });
    const { embedded, relay, durableRelay } = result.delivery;
    for (const target of [embedded, relay, durableRelay]) {
      expect(target).toMatchObject({ sent: 20, lost: 0, duplicated: 0, failedSends: 0 });
      // Measured for every target; 20 sends may cost the relays less than a clock tick (10 ms), so 0 is a figure.
      expect(target?.cpuCores).toEqual(expect.any(Number));
      expect(target!.cpuCores).toBeGreaterThanOrEqual(0);
      expect(target?.rssMb).toBeGreaterThan(0);
    }
    // The generator reports itself beside every figure.
    expect(embedded).toMatchObject({
      genMainCores: expect.any(Number),
      genCores: expect.any(Number),
      genLagP99: expect.any(Number),
      generatorLimited: expect.any(Boolean),
    });
    // The sweep runs its rates in order on one target and accounts for every message at each.
    // Every step holds a 10 s budget, so no target fails: none has a capacity figure, and no ratio
    // is drawn (a step the generator limited ends the sweep early, with no figure either).
    const sweeps = result.capacity;
    for (const sweep of [sweeps?.embedded, sweeps?.relay, sweeps?.durableRelay]) {
      const steps = sweep!.steps;
      expect(
        steps.map((step) => [step.rate, step.sent, step.lost, step.duplicated, step.failedSends]),
      ).toEqual(
        [
          [10, 10, 0, 0, 0],
          [20, 20, 0, 0, 0],
        ].slice(0, steps.length),
      );
      expect(steps.slice(0, -1).every((step) => step.verdict === 'held')).toBe(true);
      expect(sweep?.capacity).toBeNull();
      expect(sweep?.reason).toBe(
        steps.at(-1)!.verdict === 'held' ? 'held the top step' : 'generator-limited',
      );
    }
    expect(sweeps?.embeddedVsDurableRelay).toBeNull();
    expect(sweeps?.embeddedVsRelay).toBeNull();
    expect(result.delivery.embedded?.cpuMsPerSend).toBeGreaterThan(0);
    expect(result.replay[0]).toMatchObject({ messagesProjected: 500, messagesPerChat: 50 });
    expect(result.replay[0]!.middleHistoryPageMs).toBeGreaterThan(0);
    expect(result.logAppend).toEqual([expect.objectContaining({ concurrency: 4 })]);
    expect(result.logAppend[0]!.appendsPerSecond).toBeGreaterThan(0);
    // Each search and the list checked the size of their answers against the generated names.
    expect(result.directory).toEqual([expect.objectContaining({ users: 500 })]);
    expect(result.crypto.encryptFor2Ms).toBeGreaterThan(0);
    // Every registration and login answered as it should (a failure throws); the server's CPU was read.
    expect(result.logins).toMatchObject({ accounts: 6, hash: { N: 2 ** 15, r: 8, p: 1 } });
    expect(result.logins!.loginCpuMs).toBeGreaterThan(0);
    expect(result.connections).toEqual([expect.objectContaining({ sockets: 20, failed: 0 })]);
    // Each change reached every other member of the group (each operation waits for that).
    expect(result.changes.map((row) => `${row.over} ${row.kind}`)).toEqual(
      ['http', 'socket'].flatMap((over) =>
        ['message', 'edit', 'reaction', 'delete'].map((kind) => `${over} ${kind}`),
      ),
    );
  }, 300_000);
});

describe('durable relay', () => {
  it('has every message on disk before it relays or acks it', async () => {
    const relay = await startRelay(await freePort(), 'durable');
    const sockets: Socket[] = [];
    try {
      // Both ends are plain sockets of the relay; the receiver is user 1.
      const receiver = await connectSender(relay.url, { user: 1 });
      const sender = await connectSender(relay.url, { user: 0 });
      sockets.push(receiver, sender);
      const logged = (id: string) => readFileSync(relay.logFile!, 'utf8').includes(`"id":"${id}"`);
      // Read synchronously as each arrives: a message relayed before its write would be missing.
      const onDisk = { delivered: [] as boolean[], acked: [] as boolean[] };
      receiver.on('recv', (message: { id: string }) => onDisk.delivered.push(logged(message.id)));
      // A burst, so that messages wait behind a write in flight and share the next one.
      for (let i = 0; i < 200; i++) {
        const id = `m${i}`;
        sender.emit('send', { id, to: [1], body: { text: 'x'.repeat(500) } }, () =>
          onDisk.acked.push(logged(id)),
        );
      }
      await expect.poll(() => onDisk.delivered.length + onDisk.acked.length).toBe(400);
      expect(onDisk.delivered.every(Boolean) && onDisk.acked.every(Boolean)).toBe(true);
      expect(readFileSync(relay.logFile!, 'utf8').trim().split('\n')).toHaveLength(200);
    } finally {
      for (const socket of sockets) socket.close();
      await relay.stop();
    }
  });
});

describe('ejabberd as a peer', () => {
  const unavailable = ejabberdUnavailable();
  // Where Debian's ejabberd is not installed (or cannot run as this user) the peer is skipped,
  // and this test says why.
  it.skipIf(unavailable)(
    `relays every message once over XMPP${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const server = await startEjabberd(await freePort());
      try {
        const options = {
          users: 6,
          rate: 20,
          durationSeconds: 1,
          warmupSeconds: 0.5,
          groupSize: 5,
          sendOver: 'socket' as const,
        };
        const result = await usingTarget(await ejabberdTarget(server, options), (load) =>
          runDelivery(load, options),
        );
        expect(result).toMatchObject({
          sent: 20,
          expectedDeliveries: 20,
          delivered: 20,
          lost: 0,
          duplicated: 0,
        });
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});

describe('the timeline over the event log', () => {
  it('reads full pages through the service, with no table beside the log', async () => {
    // The bench throws on a short page, and when a timeline table was kept.
    const result = await runTimelineIndexBench(1_000);
    expect(result.messages).toBe(1_000);
    expect(result.indexBytes).toBeGreaterThan(0);
  }, 120_000);
});
