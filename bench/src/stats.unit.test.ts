import { describe, expect, it } from 'vitest';
import { median, percentile, summarize } from './stats.ts';

describe('benchmark statistics', () => {
  it('takes the middle run, and the mean of the two middle ones for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([53, 1622])).toBe(837.5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('reads percentiles as the sample at or above the rank (nearest rank)', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(summarize([5, 1, 3])).toMatchObject({ count: 3, p50: 3, max: 5 });
  });
});
