import { describe, expect, it } from 'vitest';
import { createRequestSummary } from './request-summary.ts';

const silent = { info: () => undefined } as never;

describe('the per-minute request summary', () => {
  it('counts requests and errors and takes the p99 of the durations, then starts again', () => {
    const summary = createRequestSummary(silent);
    for (let ms = 1; ms <= 1000; ms += 1)
      summary.record(ms % 100 === 0 ? 500 : ms % 10 === 0 ? 404 : 200, ms);
    expect(summary.take()).toEqual({ requests: 1000, serverErrors: 10, clientErrors: 90, p99Ms: 990 });
    expect(summary.take()).toBeNull();
    summary.stop();
  });

  it('keeps a bounded sample on a busy minute', () => {
    const summary = createRequestSummary(silent);
    for (let i = 0; i < 50_000; i += 1) summary.record(200, i < 49_000 ? 1 : 100);
    const taken = summary.take()!;
    expect(taken.requests).toBe(50_000);
    // 2 % of the requests took 100 ms: a uniform sample puts the p99 among them.
    expect(taken.p99Ms).toBe(100);
    summary.stop();
  });
});
