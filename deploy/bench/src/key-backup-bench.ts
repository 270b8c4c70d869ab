import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bundleForBrowser, launchBenchChromium } from './browser-bundle.ts';
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
 * Run alone: `node deploy/bench/src/key-backup-bench.ts [repeats]`.
 */
export interface KeyBackupBenchResult {
  iterations: number;
  kdfMs: number;
  openWithPassphraseMs: number;
  restoreBeyondKdfMs: number;
  iterationsFor750Ms: number;
}

export const runKeyBackupBench = async (repeats: number): Promise<KeyBackupBenchResult> => {
  const script = await bundleForBrowser(path.join(import.meta.dirname, 'key-backup-page.ts'));
  const server = createServer((req, res) => {
    if (req.url === '/bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/bundle.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchBenchChromium();
  try {
    const page = await browser.newPage();
    // 127.0.0.1 is a secure context: crypto.subtle exists there.
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => 'timeKeyBackupRound' in window);
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
  } finally {
    await browser.close();
    server.close();
  }
};

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
