import { describe, expect, it } from 'vitest';
import { withFixture } from './fixture.ts';
import type { RateLimits } from '../rate-limit.port.ts';

/**
 * The rate-limits contract, run by the memory and the Redis adapter. `replicas` are two handles
 * on the same counters (two processes' worth): what one spends, the other sees.
 */
export interface RateLimitsUnderTest {
  replicas: [RateLimits, RateLimits];
  teardown(): Promise<void>;
}

let budgetCounter = 0;
const uniqueName = () => `budget${Date.now().toString(36)}${(budgetCounter++).toString(36)}`;

export const describeRateLimitsContract = (name: string, make: () => Promise<RateLimitsUnderTest>) => {
  describe(`RateLimits contract: ${name}`, () => {
    const withLimits = (body: (replicas: [RateLimits, RateLimits]) => Promise<void>) =>
      withFixture(make, ({ replicas }) => body(replicas));

    it(
      'allows a key its points per window, then refuses with the time left, and keeps keys apart',
      withLimits(async ([limits]) => {
        const budget = limits.limit({ name: uniqueName(), points: 3, windowSeconds: 60 });
        for (let n = 1; n <= 3; n++)
          expect(await budget.consume('k')).toMatchObject({ allowed: true, consumed: n });
        const refused = await budget.consume('k');
        expect(refused).toMatchObject({ allowed: false, consumed: 4 });
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
        expect(await budget.consume('other')).toMatchObject({ allowed: true, consumed: 1 });
      }),
    );

    it(
      'counts concurrent spending exactly',
      withLimits(async ([limits]) => {
        const budget = limits.limit({ name: uniqueName(), points: 10, windowSeconds: 60 });
        const results = await Promise.all(Array.from({ length: 25 }, () => budget.consume('burst')));
        expect(results.filter((r) => r.allowed)).toHaveLength(10);
        expect((await budget.peek('burst')).consumed).toBe(25);
      }),
    );

    it(
      'peeks without spending, resets a key, and spends several points at once',
      withLimits(async ([limits]) => {
        const budget = limits.limit({ name: uniqueName(), points: 5, windowSeconds: 60 });
        expect(await budget.peek('p')).toEqual({ consumed: 0, retryAfterMs: 0 });
        await budget.consume('p', 4);
        expect((await budget.peek('p')).consumed).toBe(4);
        expect((await budget.peek('p')).consumed).toBe(4);
        expect(await budget.consume('p', 2)).toMatchObject({ allowed: false, consumed: 6 });
        await budget.reset('p');
        expect(await budget.consume('p')).toMatchObject({ allowed: true, consumed: 1 });
      }),
    );

    it(
      'keeps two budgets of the same key apart, and shares one budget between replicas',
      withLimits(async ([one, two]) => {
        const name = uniqueName();
        const a = one.limit({ name, points: 2, windowSeconds: 60 });
        const b = one.limit({ name: `${name}-other`, points: 2, windowSeconds: 60 });
        await a.consume('shared');
        await a.consume('shared');
        expect(await b.consume('shared')).toMatchObject({ allowed: true, consumed: 1 });
        const sameOnTwo = two.limit({ name, points: 2, windowSeconds: 60 });
        expect(await sameOnTwo.consume('shared')).toMatchObject({ allowed: false, consumed: 3 });
      }),
    );

    it(
      'gives the budget back when the window ends',
      withLimits(async ([limits]) => {
        const budget = limits.limit({ name: uniqueName(), points: 1, windowSeconds: 1 });
        await budget.consume('w');
        expect((await budget.consume('w')).allowed).toBe(false);
        await expect
          .poll(async () => (await budget.peek('w')).consumed, { timeout: 3_000, interval: 100 })
          .toBe(0);
        expect(await budget.consume('w')).toMatchObject({ allowed: true, consumed: 1 });
      }),
    );
  });
};
