import { describe, expect, it } from 'vitest';
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
      replayEvents: [500],
      connectionSteps: [20],
      port: 19_400 + Math.floor(Math.random() * 500),
    });
    for (const target of [result.delivery.embedded, result.delivery.relay]) {
      expect(target).toMatchObject({ sent: 20, lost: 0, duplicated: 0, failedSends: 0 });
    }
    expect(result.replay[0]).toMatchObject({ messagesProjected: 500 });
    expect(result.crypto.encryptFor2Ms).toBeGreaterThan(0);
    expect(result.connections).toEqual([expect.objectContaining({ sockets: 20, failed: 0 })]);
  }, 120_000);
});
