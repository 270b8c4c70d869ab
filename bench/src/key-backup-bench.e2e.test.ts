import { describe, expect, it } from 'vitest';
import { passphraseIterations } from '@veil/crypto';
import { runKeyBackupBench } from './key-backup-bench.ts';

/** Keeps the key-backup benchmark working in Chromium; its figures belong in the report, not here. */
describe('key backup benchmark (one round)', () => {
  it('times the passphrase KDF and a restore in the page', async () => {
    const result = await runKeyBackupBench(1);
    expect(result.iterations).toBe(passphraseIterations);
    for (const figure of [result.kdfMs, result.openWithPassphraseMs, result.restoreBeyondKdfMs])
      expect(figure).toBeGreaterThan(0);
  }, 120_000);
});
