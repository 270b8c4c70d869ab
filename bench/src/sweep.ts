/**
 * The capacity sweep's decisions, apart from any I/O so they can be tested alone: which rates to
 * offer, whether a step held the target, whether the load generator rather than the server was
 * the limit, and what capacity (if any) a sweep may claim.
 */

/** What the load generator spent over a run's measured window. */
export interface GeneratorLoad {
  /** The generator's main thread (it sends), in cores, over the sending. */
  mainThreadCores: number;
  /** The whole generator process (the main thread and its receiver workers), in cores, over the run. */
  processCores: number;
  /** Event-loop delay p99 of the main thread, and the worst of the receiver workers', in ms. */
  mainLagP99Ms: number;
  receiverLagP99Ms: number;
}

/** How often the generator's loops sample their own delay (perf_hooks.monitorEventLoopDelay). */
export const LOOP_SAMPLE_MS = 10;

/**
 * The delay p99 of a loop in ms, from monitorEventLoopDelay's p99 in ns: each of its samples is
 * the time between two timer ticks, the sampling interval included, so an idle loop reads ~10 ms.
 */
export const loopDelayMs = (p99Ns: number, sampleMs = LOOP_SAMPLE_MS): number =>
  Math.max(0, p99Ns / 1e6 - sampleMs);

/**
 * Beyond these the generator, not the server, sets the figures: a main thread above 90 % of a
 * core sends late (the offered rate is not offered), and a loop delayed by more than 20 ms adds
 * that much to the latencies it times (against a budget of 50 ms).
 */
export const GENERATOR_LIMITS = { mainThreadCores: 0.9, lagP99Ms: 20 } as const;

export const generatorLimited = (load: GeneratorLoad, limits = GENERATOR_LIMITS): boolean =>
  load.mainThreadCores > limits.mainThreadCores ||
  load.mainLagP99Ms > limits.lagP99Ms ||
  load.receiverLagP99Ms > limits.lagP99Ms;

/** The figures of one step (the median row of its runs) that the decision reads. */
export interface StepFigures {
  rate: number;
  p99: number;
  lost: number;
  duplicated: number;
  failedSends: number;
  generatorLimited: boolean;
}

/**
 * `held`: p99 within the budget and nothing lost, duplicated or failed. `failed`: the server did
 * not hold it. `generator-limited`: the generator was saturated, so the step says nothing of the
 * server either way.
 */
export type StepVerdict = 'held' | 'failed' | 'generator-limited';

export const stepVerdict = (step: StepFigures, budgetMs: number): StepVerdict => {
  if (step.generatorLimited) return 'generator-limited';
  // No p99 at all (nothing arrived) is NaN: not within any budget.
  const within = step.p99 <= budgetMs && step.lost === 0 && step.duplicated === 0 && step.failedSends === 0;
  return within ? 'held' : 'failed';
};

/** A sweep goes on while its steps hold; a failure or a saturated generator ends it. */
export const sweepGoesOn = (verdict: StepVerdict): boolean => verdict === 'held';

export type SweepOutcome =
  | { capacity: number; reason: 'failed above it' }
  | { capacity: null; reason: 'held the top step' | 'generator-limited' | 'failed the first step' };

/**
 * A capacity figure only where the server was seen to fail: the highest step held below the
 * first failure. A sweep that held its top step, or ended because the generator was saturated,
 * has no capacity figure (and no ratio may be drawn from it).
 */
export const sweepOutcome = (steps: StepFigures[], budgetMs: number): SweepOutcome => {
  let held: number | null = null;
  for (const step of steps) {
    const verdict = stepVerdict(step, budgetMs);
    if (verdict === 'generator-limited') return { capacity: null, reason: 'generator-limited' };
    if (verdict === 'failed')
      return held === null
        ? { capacity: null, reason: 'failed the first step' }
        : { capacity: held, reason: 'failed above it' };
    held = step.rate;
  }
  return { capacity: null, reason: 'held the top step' };
};

/** Rates from `start`, each `factor` times the last (rounded to tens), up to `ceiling` included. */
export const geometricRates = (start: number, factor: number, ceiling: number): number[] => {
  if (!(start > 0) || !(factor > 1) || !(ceiling >= start))
    throw new Error(
      `a geometric sweep needs start > 0, factor > 1, ceiling >= start (${start}, ${factor}, ${ceiling})`,
    );
  const rates: number[] = [];
  for (let rate = start; rate < ceiling; rate *= factor) {
    const rounded = Math.max(10, Math.round(rate / 10) * 10);
    if (rounded !== rates.at(-1)) rates.push(rounded);
  }
  if (rates.at(-1) !== ceiling) rates.push(ceiling);
  return rates;
};

/**
 * `--capacity`: a list of rates (`2000,3000,5000`), `start:factor:ceiling` for a geometric sweep
 * (`500:1.25:32000`), or `auto`, the geometric sweep whose ceiling is above the bare relay's
 * ceiling on this machine (about 21,000 sends/s).
 */
export const AUTO_SWEEP = { start: 500, factor: 1.25, ceiling: 32_000 } as const;

export const parseCapacityRates = (value: string): number[] => {
  if (value === '') return [];
  if (value === 'auto') return geometricRates(AUTO_SWEEP.start, AUTO_SWEEP.factor, AUTO_SWEEP.ceiling);
  const geometric = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(value);
  if (geometric) return geometricRates(Number(geometric[1]), Number(geometric[2]), Number(geometric[3]));
  const rates = value.split(',').filter(Boolean).map(Number);
  if (rates.some((rate) => !(rate > 0)))
    throw new Error(`--capacity: "${value}" is not a list of rates, start:factor:ceiling, or auto`);
  return [...new Set(rates)].sort((a, b) => a - b);
};
