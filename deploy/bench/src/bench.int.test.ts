import { describe, expect, it } from 'vitest';
import { freePortBlock } from '@veil/test-env';
import { runBench } from './bench.ts';

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
      directoryUsers: [500],
      connectionSteps: [20],
      changes: 3,
      // The embedded Veil on port, the idle-socket server on port + 1, the relay on port + 200.
      port: await freePortBlock([0, 1, 200]),
    });
    for (const target of [result.delivery.embedded, result.delivery.relay]) {
      expect(target).toMatchObject({ sent: 20, lost: 0, duplicated: 0, failedSends: 0 });
    }
    // The sweep runs its rates in order on one target and accounts for every message at each.
    for (const sweep of [result.capacity?.embedded, result.capacity?.relay]) {
      expect(
        sweep?.steps.map((step) => [step.rate, step.sent, step.lost, step.duplicated, step.failedSends]),
      ).toEqual([
        [10, 10, 0, 0, 0],
        [20, 20, 0, 0, 0],
      ]);
      expect(sweep?.capacity?.rate).toBe(20);
    }
    expect(result.delivery.embedded?.cpuMsPerSend).toBeGreaterThan(0);
    expect(result.replay[0]).toMatchObject({ messagesProjected: 500, messagesPerChat: 50 });
    expect(result.replay[0]!.middleHistoryPageMs).toBeGreaterThan(0);
    // Each search and the list checked the size of their answers against the generated names.
    expect(result.directory).toEqual([expect.objectContaining({ users: 500 })]);
    expect(result.crypto.encryptFor2Ms).toBeGreaterThan(0);
    expect(result.connections).toEqual([expect.objectContaining({ sockets: 20, failed: 0 })]);
    // Each change reached every other member of the group (each operation waits for that).
    expect(result.changes.map((row) => row.kind)).toEqual(['message', 'edit', 'reaction', 'delete']);
  }, 120_000);
});
