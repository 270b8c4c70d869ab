import { describe, expect, it } from 'vitest';
import {
  generatorLimited,
  geometricRates,
  loopDelayMs,
  parseCapacityRates,
  stepVerdict,
  sweepGoesOn,
  sweepOutcome,
  type StepFigures,
} from './sweep.ts';

const step = (rate: number, p99: number, more: Partial<StepFigures> = {}): StepFigures => ({
  rate,
  p99,
  lost: 0,
  duplicated: 0,
  failedSends: 0,
  generatorLimited: false,
  ...more,
});
const idle = { mainThreadCores: 0.3, processCores: 0.8, mainLagP99Ms: 2, receiverLagP99Ms: 3 };

describe('the generator as the limit', () => {
  it('is marked when its main thread passes 90 % of a core or a loop lags past 20 ms', () => {
    expect(generatorLimited(idle)).toBe(false);
    expect(generatorLimited({ ...idle, mainThreadCores: 0.95 })).toBe(true);
    expect(generatorLimited({ ...idle, mainLagP99Ms: 25 })).toBe(true);
    expect(generatorLimited({ ...idle, receiverLagP99Ms: 21 })).toBe(true);
    // The whole process may use more than a core: its receivers run on other threads.
    expect(generatorLimited({ ...idle, processCores: 1.6 })).toBe(false);
  });

  it("reads a loop's delay without the sampling interval in it", () => {
    expect(loopDelayMs(10_050_000)).toBeCloseTo(0.05);
    expect(loopDelayMs(35_000_000)).toBeCloseTo(25);
    expect(loopDelayMs(9_000_000)).toBe(0);
  });
});

describe('a step', () => {
  it('holds within the budget with nothing lost, doubled or failed', () => {
    expect(stepVerdict(step(1000, 49.9), 50)).toBe('held');
    expect(stepVerdict(step(1000, 50.1), 50)).toBe('failed');
    expect(stepVerdict(step(1000, 10, { lost: 1 }), 50)).toBe('failed');
    expect(stepVerdict(step(1000, 10, { duplicated: 1 }), 50)).toBe('failed');
    expect(stepVerdict(step(1000, 10, { failedSends: 1 }), 50)).toBe('failed');
    expect(stepVerdict(step(1000, Number.NaN), 50)).toBe('failed');
  });

  it('says nothing of the server when the generator was the limit, even over budget', () => {
    expect(stepVerdict(step(1000, 400, { generatorLimited: true }), 50)).toBe('generator-limited');
    expect(sweepGoesOn('generator-limited')).toBe(false);
    expect(sweepGoesOn('failed')).toBe(false);
    expect(sweepGoesOn('held')).toBe(true);
  });
});

describe('a sweep', () => {
  it('claims the highest step held below the first failure', () => {
    expect(sweepOutcome([step(1000, 10), step(2000, 30), step(4000, 80)], 50)).toEqual({
      capacity: 2000,
      reason: 'failed above it',
    });
  });

  it('claims no capacity when the top step held', () => {
    expect(sweepOutcome([step(1000, 10), step(2000, 30)], 50)).toEqual({
      capacity: null,
      reason: 'held the top step',
    });
  });

  it('claims no capacity when the generator was saturated before the server failed', () => {
    expect(
      sweepOutcome([step(1000, 10), step(2000, 90, { generatorLimited: true }), step(4000, 200)], 50),
    ).toEqual({ capacity: null, reason: 'generator-limited' });
  });

  it('claims no capacity when the first step failed', () => {
    expect(sweepOutcome([step(1000, 60)], 50)).toEqual({ capacity: null, reason: 'failed the first step' });
  });
});

describe('the rates offered', () => {
  it('grow geometrically up to a ceiling above the bare relay', () => {
    const rates = geometricRates(500, 1.25, 32_000);
    expect(rates[0]).toBe(500);
    expect(rates.at(-1)).toBe(32_000);
    // Each step about 25 % above the last; the ceiling itself may come sooner.
    for (let i = 1; i < rates.length; i++) {
      if (i < rates.length - 1) expect(rates[i]! / rates[i - 1]!).toBeGreaterThan(1.2);
      expect(rates[i]! / rates[i - 1]!).toBeGreaterThan(1);
      expect(rates[i]! / rates[i - 1]!).toBeLessThanOrEqual(1.3);
    }
    expect(rates.some((rate) => rate > 21_000 && rate < 32_000)).toBe(true);
  });

  it('are read from a list, start:factor:ceiling or auto', () => {
    expect(parseCapacityRates('')).toEqual([]);
    expect(parseCapacityRates('3000,2000,3000')).toEqual([2000, 3000]);
    expect(parseCapacityRates('100:2:800')).toEqual([100, 200, 400, 800]);
    expect(parseCapacityRates('auto').at(-1)).toBe(32_000);
    expect(() => parseCapacityRates('fast')).toThrow(/--capacity/);
    expect(() => parseCapacityRates('100:1:800')).toThrow(/factor > 1/);
  });
});
