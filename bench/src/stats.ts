/** Percentiles and medians for benchmark samples (milliseconds), and the clock they are taken on. */
export const percentile = (sorted: number[], p: number): number => {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
};

export const summarize = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
};

/** The middle value; for an even count the mean of the two middle ones (so two runs never report only the better). */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  if (sorted.length === 0) return Number.NaN;
  return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
};

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/**
 * Milliseconds on a clock that worker threads share with the main thread (each thread's
 * `performance.now()` counts from its own start): send starts and arrivals are compared on it.
 */
export const now = () => performance.timeOrigin + performance.now();
