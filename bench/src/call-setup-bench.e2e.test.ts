import { freePortBlock } from '@veil/test-env';
import { describe, expect, it } from 'vitest';
import { runCallSetupBench } from './call-setup-bench.ts';

/** Keeps the call set-up benchmark working in Chromium; its figures belong in the report, not here. */
describe('call set-up benchmark (one call)', () => {
  it('sets up a call to media on both sides and accounts the server CPU it took', async () => {
    const result = await runCallSetupBench(1, await freePortBlock([0]));
    expect(result.calls).toBe(1);
    expect(result.setupMsRuns).toHaveLength(1);
    // Media flows only after the callee's browser rang.
    expect(result.setupMsP50).toBeGreaterThan(result.ringMsP50);
    expect(result.cpuMsPerSetup).toBeGreaterThanOrEqual(0);
  }, 180_000);
});
