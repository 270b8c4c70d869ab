import { freePortBlock } from '@veil/test-env';
import { describe, expect, it } from 'vitest';
import { runLinkBench } from './link-bench.ts';

/** Keeps the link benchmark working in Chromium; its figures belong in the report, not here. */
describe('browser link benchmark (one round)', () => {
  it('links a browser end to end and reads a history page with the keys it got', async () => {
    const result = await runLinkBench(1, await freePortBlock([0]));
    expect(result.rounds).toBe(1);
    expect(result.linkMs).toBeGreaterThan(0);
    expect(result.linkAndHistoryMs).toBeGreaterThanOrEqual(result.linkMs);
  }, 120_000);
});
