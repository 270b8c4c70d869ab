import { describe, expect, it } from 'vitest';
import { runSignatureBench } from './signature-bench.ts';

/** Keeps the sender-signature benchmark working in Chromium; its figures belong in the report, not here. */
describe('sender signature benchmark (one round)', () => {
  it('times signing, verifying and a 100-message history in the page', async () => {
    const result = await runSignatureBench(1);
    for (const figure of Object.values(result)) expect(figure).toBeGreaterThan(0);
  }, 120_000);
});
