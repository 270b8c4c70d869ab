import type { Logger } from '@veil/ports';

/**
 * Slow durable writes, reported to operators. Every append waits for its group commit, so a
 * disk that stalls holds every message back: on this project's benchmark machine, stalls of
 * 20-56 ms in a row, not Veil's code, were what pushed delivery p99 over budget (docs/benchmarks/delivery-and-capacity.md,
 * "Where the tail comes from"). One warning per minute at most, with how many slow writes it covers, so a
 * failing disk cannot flood the log.
 */
export const slowDiskReporter = (log: Logger, intervalMs = 60_000, now = () => Date.now()) => {
  let lastReportAt = -Infinity;
  let unreported = 0;
  let worstMs = 0;
  return (context: string, milliseconds: number, events: number) => {
    unreported++;
    worstMs = Math.max(worstMs, milliseconds);
    if (now() - lastReportAt < intervalMs) return;
    log.warn(
      { context, slowWrites: unreported, worstMs: Math.round(worstMs), eventsInLast: events },
      'the disk was slow to make events durable; every send waited for it',
    );
    lastReportAt = now();
    unreported = 0;
    worstMs = 0;
  };
};
