import path from 'node:path';
import { withBenchPage } from './browser-bundle.ts';
import type { SignaturePage } from './signature-page.ts';
import { median, round } from './stats.ts';

/**
 * Sender signatures where they run, in Chromium (Debian's, headless, driven by playwright-core)
 * with the same @veil/crypto the web client bundles: signing one message and verifying one
 * against the sender's key log, one after another (target: under 1 ms each), verifying a
 * 100-message history at once, and reading it with and without verifying (target: under 150 ms
 * with it).
 * Run alone: `node bench/src/signature-bench.ts [rounds]`.
 */
export interface SignatureBenchResult {
  signMs: number;
  verifyMs: number;
  verifyHistoryMs: number;
  decryptHistoryMs: number;
  decryptAndVerifyHistoryMs: number;
}

/** Messages signed and verified per round, for the per-message means. */
const messagesPerRound = 200;

export const runSignatureBench = (rounds: number): Promise<SignatureBenchResult> =>
  withBenchPage(path.join(import.meta.dirname, 'signature-page.ts'), 'timeSignatureRound', async (page) => {
    const timeOneRound = () =>
      page.evaluate((n) => (window as unknown as SignaturePage).timeSignatureRound(n), messagesPerRound);
    await timeOneRound(); // warm-up: the first use of each algorithm
    type Round = Awaited<ReturnType<SignaturePage['timeSignatureRound']>>;
    const measured: Round[] = [];
    for (let i = 0; i < rounds; i++) measured.push(await timeOneRound());
    const of = (pick: (r: Round) => number, digits: number) => round(median(measured.map(pick)), digits);
    return {
      signMs: of((r) => r.signMs, 3),
      verifyMs: of((r) => r.verifyMs, 3),
      verifyHistoryMs: of((r) => r.verifyHistoryMs, 1),
      decryptHistoryMs: of((r) => r.decryptHistoryMs, 1),
      decryptAndVerifyHistoryMs: of((r) => r.decryptAndVerifyHistoryMs, 1),
    };
  });

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runSignatureBench(Number(process.argv[2] ?? 5)).then(
    (result) => {
      console.log('Sender signatures in Chromium (median ms)');
      console.table(result);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
