import { describe, expect, it } from 'vitest';
import { runSearchBench } from './search-bench.ts';

/** Keeps the search benchmark working in Chromium; its figures belong in BENCHMARKS.md, not here. */
describe('message search benchmark (a small index)', () => {
  it('builds the index, answers every query, and loads it back from its sealed save', async () => {
    const result = await runSearchBench(3000);
    expect(result.messages).toBe(3000);
    const hits = Object.fromEntries(result.queries.map((q) => [q.query, q.hits]));
    // Common words fill the page of 50; the rare word is in 3 messages (every thousandth).
    expect(hits.meeting).toBe(50);
    expect(hits.zanzibar1000).toBeGreaterThanOrEqual(1);
    expect(hits.tomorow).toBeGreaterThan(0); // a typo still finds "tomorrow"
    expect(result.hitsAfterReload).toBe(hits.meeting);
    expect(result.savedMb).toBeGreaterThan(0);
  }, 180_000);
});
