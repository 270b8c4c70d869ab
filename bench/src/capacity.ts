import {
  runDelivery,
  type CpuProbe,
  type DeliveryOptions,
  type DeliveryResult,
  type DeliveryTarget,
} from './delivery.ts';
import { median, round } from './stats.ts';
import { generatorLimited, stepVerdict, sweepGoesOn, sweepOutcome, type SweepOutcome } from './sweep.ts';

const medianByProcess = (runs: DeliveryResult[]): Record<string, number> | null => {
  const splits = runs.map((r) => r.cpuMsPerSendByProcess);
  if (!splits.every((split) => split !== null)) return null;
  const labels = [...new Set(splits.flatMap((split) => Object.keys(split!)))].sort();
  return Object.fromEntries(
    labels.map((label) => [label, round(median(splits.map((split) => split![label] ?? 0)), 4)]),
  );
};

/** Several runs of one load as one row: totals for the accounting, medians for the figures. */
export const medianDelivery = (runs: DeliveryResult[]) => ({
  sent: runs.reduce((n, r) => n + r.sent, 0),
  lost: runs.reduce((n, r) => n + r.lost, 0),
  duplicated: runs.reduce((n, r) => n + r.duplicated, 0),
  failedSends: runs.reduce((n, r) => n + r.failedSends, 0),
  deliveredPerSecond: round(median(runs.map((r) => r.deliveredPerSecond))),
  p50: round(median(runs.map((r) => r.latencyMs.p50))),
  p95: round(median(runs.map((r) => r.latencyMs.p95))),
  p99: round(median(runs.map((r) => r.latencyMs.p99))),
  max: round(median(runs.map((r) => r.latencyMs.max))),
  /** Each run's p99, so a median can be read with its spread. */
  p99Runs: runs.map((r) => round(r.latencyMs.p99, 1)).join(' '),
  cpuMsPerSend: runs.every((r) => r.serverCpuMsPerSend !== null)
    ? round(median(runs.map((r) => r.serverCpuMsPerSend!)), 3)
    : null,
  cpuCores: runs.every((r) => r.serverCpuCores !== null)
    ? round(median(runs.map((r) => r.serverCpuCores!)), 2)
    : null,
  /** The server's resident memory after the load, the largest of the runs (MiB). */
  rssMb: runs.every((r) => r.serverRssMb !== null)
    ? round(Math.max(...runs.map((r) => r.serverRssMb!)), 0)
    : null,
  /** The server's JS heap after the run with the most resident memory, where it reports it. */
  heap: runs.reduce((a, b) => ((b.serverRssMb ?? 0) > (a.serverRssMb ?? 0) ? b : a)).serverHeap,
  /** Each process's median CPU milliseconds per send, when the runs split them. */
  cpuMsPerSendByProcess: medianByProcess(runs),
  /**
   * The load generator beside every figure, the worst of the runs: its main thread's share of a
   * core while sending, the whole generator's (receivers included), its loops' worst delay p99;
   * and whether any run was limited by it rather than by the server (sweep.ts).
   */
  genMainCores: round(Math.max(...runs.map((r) => r.generator.mainThreadCores)), 2),
  genCores: round(Math.max(...runs.map((r) => r.generator.processCores)), 2),
  genLagP99: round(
    Math.max(...runs.map((r) => Math.max(r.generator.mainLagP99Ms, r.generator.receiverLagP99Ms))),
    1,
  ),
  generatorLimited: runs.some((r) => generatorLimited(r.generator)),
});

export type DeliverySummary = ReturnType<typeof medianDelivery>;

export interface CapacityResult {
  budgetMs: number;
  steps: (DeliverySummary & { rate: number; verdict: ReturnType<typeof stepVerdict> })[];
  /**
   * The highest offered rate held (median p99 within the budget, nothing lost, duplicated or
   * failed) below a rate the server failed; null when the sweep saw no failure of the server
   * (it held the top step, or the generator was the limit first), with the reason.
   */
  capacity: { rate: number; deliveredPerSecond: number; p99: number } | null;
  reason: SweepOutcome['reason'];
}

/**
 * Capacity at a latency budget: offers rising rates to one running target (same accounts, same
 * connections) until the server fails one (over budget, or anything lost or failed) or the load
 * generator is saturated (sweep.ts decides both). Comparing two targets' capacities is
 * "throughput at the same latency budget", and only targets seen to fail have one.
 */
export const sweepCapacity = async (
  target: DeliveryTarget,
  base: DeliveryOptions,
  sweep: { rates: number[]; budgetMs: number; repeats: number },
  cpuProbe?: CpuProbe,
): Promise<CapacityResult> => {
  const steps: CapacityResult['steps'] = [];
  for (const rate of [...sweep.rates].sort((a, b) => a - b)) {
    const runs: DeliveryResult[] = [];
    for (let i = 0; i < sweep.repeats; i++) runs.push(await runDelivery(target, { ...base, rate }, cpuProbe));
    const summary = { rate, ...medianDelivery(runs) };
    const verdict = stepVerdict(summary, sweep.budgetMs);
    steps.push({ ...summary, verdict });
    if (!sweepGoesOn(verdict)) break;
  }
  const outcome = sweepOutcome(steps, sweep.budgetMs);
  const best = steps.find((step) => step.rate === outcome.capacity);
  return {
    budgetMs: sweep.budgetMs,
    steps,
    capacity: best ? { rate: best.rate, deliveredPerSecond: best.deliveredPerSecond, p99: best.p99 } : null,
    reason: outcome.reason,
  };
};
