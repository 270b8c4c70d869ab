import type { Logger } from '@veil/ports';

/** How many durations an interval keeps for its p99 (a uniform sample beyond that: reservoir sampling). */
const sampleSize = 10_000;

export interface RequestSummary {
  requests: number;
  /** Answers with a 5xx status. */
  serverErrors: number;
  /** Answers with a 4xx status (refusals of bad input, missing tokens, spent budgets). */
  clientErrors: number;
  /** The 99th percentile of the time to answer, in ms (of a uniform sample on busy intervals). */
  p99Ms: number;
}

/**
 * Request lines are logged at `debug`; at `info` the gateway writes one summary line a minute
 * (requests, errors, p99), and none for a minute without requests.
 */
export const createRequestSummary = (log: Logger, intervalMs = 60_000) => {
  let requests = 0;
  let serverErrors = 0;
  let clientErrors = 0;
  let durations: number[] = [];

  const record = (status: number, durationMs: number) => {
    requests += 1;
    if (status >= 500) serverErrors += 1;
    else if (status >= 400) clientErrors += 1;
    if (durations.length < sampleSize) durations.push(durationMs);
    else {
      const slot = Math.floor(Math.random() * requests);
      if (slot < sampleSize) durations[slot] = durationMs;
    }
  };

  /** The summary of the requests since the last one, and a fresh start; null when there were none. */
  const take = (): RequestSummary | null => {
    if (requests === 0) return null;
    const sorted = durations.sort((a, b) => a - b);
    const p99Ms = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
    const summary = { requests, serverErrors, clientErrors, p99Ms: Math.round(p99Ms * 10) / 10 };
    requests = serverErrors = clientErrors = 0;
    durations = [];
    return summary;
  };

  const timer = setInterval(() => {
    const summary = take();
    if (summary) log.info(summary, 'requests in the last minute');
  }, intervalMs);
  timer.unref();

  return { record, take, stop: () => clearInterval(timer) };
};
export type RequestSummaryRecorder = ReturnType<typeof createRequestSummary>;
