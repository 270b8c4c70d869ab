import { describe, expect, it } from 'vitest';
import type { ApiError } from './api-error.ts';
import { isPassingFailure, retryDelayMs } from './use-auto-retry.ts';

const failure = (kind: ApiError['kind'], status: number | null): ApiError => ({
  kind,
  status,
  statusText: '',
  message: 'failed',
});

describe('retrying a failed load', () => {
  it('waits twice as long each time, at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('tries again when the failure may pass, not after a refusal', () => {
    expect(isPassingFailure(failure('network', null))).toBe(true);
    for (const status of [500, 502, 503, 408, 429])
      expect(isPassingFailure(failure('http', status))).toBe(true);
    for (const status of [400, 401, 403, 404]) expect(isPassingFailure(failure('http', status))).toBe(false);
    expect(isPassingFailure(new Error('boom'))).toBe(false);
  });
});
