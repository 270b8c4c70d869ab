import {
  runDelivery,
  type CpuProbe,
  type DeliveryOptions,
  type DeliveryResult,
  type DeliveryTarget,
} from './delivery.ts';
import { median, round } from './stats.ts';

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
  /** Each process's median CPU milliseconds per send, when the runs split them. */
  cpuMsPerSendByProcess: medianByProcess(runs),
});

export type DeliverySummary = ReturnType<typeof medianDelivery>;

export interface CapacityResult {
  budgetMs: number;
  steps: (DeliverySummary & { rate: number })[];
  /** The highest offered rate whose median p99 stayed within the budget with nothing lost (null: none did). */
  capacity: { rate: number; deliveredPerSecond: number; p99: number } | null;
}

/**
 * Capacity at a latency budget: offers rising rates to one running target (same accounts, same
 * connections) and finds the highest whose median p99 stays within the budget, with nothing lost,
 * duplicated or failed. It stops at the first rate over budget or with anything lost or failed.
 * Comparing two targets' capacities is "throughput at the same latency budget".
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
    const step = { rate, ...medianDelivery(runs) };
    steps.push(step);
    // Over budget, or anything lost or failed (no p99 at all when nothing arrived): beyond it, only queues grow.
    const within = step.p99 <= sweep.budgetMs && step.lost === 0 && step.failedSends === 0;
    if (!within) break;
  }
  const best = steps
    .filter((s) => s.p99 <= sweep.budgetMs && s.lost === 0 && s.duplicated === 0 && s.failedSends === 0)
    .at(-1);
  return {
    budgetMs: sweep.budgetMs,
    steps,
    capacity: best ? { rate: best.rate, deliveredPerSecond: best.deliveredPerSecond, p99: best.p99 } : null,
  };
};
