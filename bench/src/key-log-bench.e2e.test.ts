import { describe, expect, it } from 'vitest';
import { runKeyLogBench } from './key-log-bench.ts';

/** Keeps the key-log benchmark working in Chromium at a tiny size; its figures belong in the report, not here. */
describe('key log benchmark (one round, tiny)', () => {
  it('times a long log, a chat list of logs and the key checks of a send in the page', async () => {
    const result = await runKeyLogBench(1, { longLogEntries: 20, contacts: 5 });
    for (const [name, figure] of Object.entries(result))
      if (name !== 'addedPerSendMs') expect(figure, name).toBeGreaterThan(0);
  }, 120_000);
});
