import { describe, expect, it } from 'vitest';
import { argon2idParams } from '@veil/crypto';
import { runKeyBackupBench } from './key-backup-bench.ts';

/** Keeps the key-backup benchmark working in Chromium; its figures belong in the report, not here. */
describe('key backup benchmark (one round)', () => {
  it('times the passphrase KDF and a restore in the page', async () => {
    const result = await runKeyBackupBench(1);
    expect([result.argon2idMemoryKiB, result.argon2idPasses]).toEqual([
      argon2idParams.memoryKiB,
      argon2idParams.iterations,
    ]);
    const figures = [
      result.argon2idMs,
      result.olderPbkdf2Ms,
      result.openWithPassphraseMs,
      result.restoreBeyondKdfMs,
    ];
    for (const figure of figures) expect(figure).toBeGreaterThan(0);
  }, 120_000);
});
