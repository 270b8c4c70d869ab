import { describe, expect, it } from 'vitest';
import { createMemoryDedupe, dedupeRetentionSeconds } from './dedupe.ts';

describe('memory dedupe', () => {
  it('claims an id once', async () => {
    const dedupe = createMemoryDedupe();
    expect(await dedupe.claim('e1')).toBe(true);
    expect(await dedupe.claim('e1')).toBe(false);
    expect(await dedupe.claim('e2')).toBe(true);
  });

  it('forgets claims after the retention window and beyond its size', async () => {
    let now = 0;
    const dedupe = createMemoryDedupe({ maxEntries: 2, now: () => now });
    await dedupe.claim('e1');
    now = dedupeRetentionSeconds * 1000 + 1;
    expect(await dedupe.claim('e1')).toBe(true);
    await dedupe.claim('e2');
    await dedupe.claim('e3'); // evicts e1, the oldest
    expect(await dedupe.claim('e1')).toBe(true);
    expect(await dedupe.claim('e3')).toBe(false);
  });
});
