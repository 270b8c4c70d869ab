import path from 'node:path';
import { withBenchPage } from './browser-bundle.ts';
import type { KeyBackupPage } from './key-backup-page.ts';
import { median, round } from './stats.ts';

/**
 * The key backup's cost where it runs, in Chromium (Debian's, headless, driven by playwright-core)
 * with the same @veil/crypto the web client bundles:
 *  - the passphrase KDF alone (PBKDF2-SHA256 at `passphraseIterations`), the figure the iteration
 *    count is tuned by (target 0.5-1 s), and the count that would take 0.75 s here;
 *  - a restore beyond the KDF (target under 1 s): opening the backup with the recovery key (HKDF,
 *    two AES-GCM unwraps, the public-key check), keeping the key as the browser does (a
 *    non-extractable copy, the sealed copy, one IndexedDB write), and reading a 50-message page.
 * Run alone: `node bench/src/key-backup-bench.ts [repeats]`.
 */
export interface KeyBackupBenchResult {
  iterations: number;
  kdfMs: number;
  openWithPassphraseMs: number;
  restoreBeyondKdfMs: number;
  iterationsFor750Ms: number;
}

export const runKeyBackupBench = (repeats: number): Promise<KeyBackupBenchResult> =>
  withBenchPage(path.join(import.meta.dirname, 'key-backup-page.ts'), 'timeKeyBackupRound', async (page) => {
    const timeOneRound = () => page.evaluate(() => (window as unknown as KeyBackupPage).timeKeyBackupRound());
    await timeOneRound(); // warm-up: the first use of each algorithm
    type Round = Awaited<ReturnType<KeyBackupPage['timeKeyBackupRound']>>;
    const rounds: Round[] = [];
    for (let i = 0; i < repeats; i++) rounds.push(await timeOneRound());
    const of = (pick: (r: Round) => number) => round(median(rounds.map(pick)), 1);
    const kdfMs = of((r) => r.kdfMs);
    const iterations = rounds[0]!.iterations;
    return {
      iterations,
      kdfMs,
      openWithPassphraseMs: of((r) => r.openWithPassphraseMs),
      restoreBeyondKdfMs: of((r) => r.restoreBeyondKdfMs),
      iterationsFor750Ms: Math.round((iterations * 750) / kdfMs / 100_000) * 100_000,
    };
  });

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runKeyBackupBench(Number(process.argv[2] ?? 7)).then(
    (result) => {
      console.log('Key backup in Chromium (median ms)');
      console.table(result);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
