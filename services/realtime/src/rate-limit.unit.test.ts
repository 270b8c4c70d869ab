import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.ts';

describe('createRateLimiter', () => {
  it('allows a burst up to capacity, then drops', () => {
    const limiter = createRateLimiter({ capacity: 3, refillPerSecond: 1 });
    const results = [0, 0, 0, 0].map(() => limiter.take(1000));
    expect(results).toEqual([true, true, true, false]);
  });

  it('refills with time, never above capacity', () => {
    const limiter = createRateLimiter({ capacity: 2, refillPerSecond: 2 });
    expect([limiter.take(0), limiter.take(0), limiter.take(0)]).toEqual([true, true, false]);
    expect(limiter.take(500)).toBe(true); // one token back after 0.5 s
    expect(limiter.take(500)).toBe(false);
    // a long pause refills to capacity only
    expect([limiter.take(60_000), limiter.take(60_000), limiter.take(60_000)]).toEqual([true, true, false]);
  });
});
