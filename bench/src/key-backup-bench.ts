import path from 'node:path';
import { withBenchPage } from './browser-bundle.ts';
import type { KeyBackupPage } from './key-backup-page.ts';
import { median, round } from './stats.ts';

/**
 * The key backup's cost where it runs, in Chromium (Debian's, headless, driven by playwright-core)
 * with the same @veil/crypto the web client bundles:
 *  - the passphrase KDF alone: Argon2id at `argon2idParams`, the figure its memory and passes are
 *    tuned by (target 0.5-1 s), and the passes that would take about 0.75 s here at that memory;
 *    and PBKDF2-SHA256 at the 4,000,000 iterations of backups made before Argon2id (their first
 *    passphrase unlock, which then re-wraps them, pays it once);
 *  - a restore beyond the KDF (target under 1 s): opening the backup with the recovery key (HKDF,
 *    two AES-GCM unwraps, the public-key check), keeping the key as the browser does (a
 *    non-extractable copy, the sealed copy, one IndexedDB write), and reading a 50-message page.
 * Run alone: `node bench/src/key-backup-bench.ts [repeats]`.
 */
export interface KeyBackupBenchResult {
  argon2idMemoryKiB: number;
  argon2idPasses: number;
  argon2idMs: number;
  argon2idPassesFor750Ms: number;
  olderPbkdf2Ms: number;
  openWithPassphraseMs: number;
  restoreBeyondKdfMs: number;
}

export const runKeyBackupBench = (repeats: number): Promise<KeyBackupBenchResult> =>
  withBenchPage(path.join(import.meta.dirname, 'key-backup-page.ts'), 'timeKeyBackupRound', async (page) => {
    const timeOneRound = () => page.evaluate(() => (window as unknown as KeyBackupPage).timeKeyBackupRound());
    await timeOneRound(); // warm-up: the first use of each algorithm
    type Round = Awaited<ReturnType<KeyBackupPage['timeKeyBackupRound']>>;
    const rounds: Round[] = [];
    for (let i = 0; i < repeats; i++) rounds.push(await timeOneRound());
    const of = (pick: (r: Round) => number) => round(median(rounds.map(pick)), 1);
    const argon2idMs = of((r) => r.argon2idMs);
    const { memoryKiB, iterations: passes } = rounds[0]!.argon2id;
    return {
      argon2idMemoryKiB: memoryKiB,
      argon2idPasses: passes,
      argon2idMs,
      argon2idPassesFor750Ms: Math.max(1, Math.round((passes * 750) / argon2idMs)),
      olderPbkdf2Ms: of((r) => r.pbkdf2Ms),
      openWithPassphraseMs: of((r) => r.openWithPassphraseMs),
      restoreBeyondKdfMs: of((r) => r.restoreBeyondKdfMs),
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
