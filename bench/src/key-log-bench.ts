import path from 'node:path';
import { withBenchPage } from './browser-bundle.ts';
import type { KeyLogPage } from './key-log-page.ts';
import { median, round } from './stats.ts';

/**
 * Key logs where they are checked, in Chromium (Debian's, headless, driven by playwright-core)
 * with the same @veil/crypto the web client bundles: checking one 1,000-entry log, checking the
 * logs of a 500-contact chat list at once (three entries each), and what checking keys adds to a
 * send (a send with both members' logs checked and their keys imported, against one with checked
 * keys cached, which is what the client does after the first send to a chat).
 * Run alone: `npm run bench:key-logs -- [rounds]` (`node bench/src/key-log-bench.ts [rounds]`).
 */
export interface KeyLogBenchResult {
  longLogMs: number;
  chatListMs: number;
  sendMs: number;
  sendWithChecksMs: number;
  addedPerSendMs: number;
}

export const keyLogBenchSizes = { longLogEntries: 1000, contacts: 500 };

export const runKeyLogBench = (
  rounds: number,
  sizes: { longLogEntries: number; contacts: number } = keyLogBenchSizes,
): Promise<KeyLogBenchResult> =>
  withBenchPage(path.join(import.meta.dirname, 'key-log-page.ts'), 'timeKeyLogRound', async (page) => {
    const timeOneRound = () =>
      page.evaluate((s) => (window as unknown as KeyLogPage).timeKeyLogRound(s), sizes);
    await timeOneRound(); // warm-up: the first use of each algorithm
    type Round = Awaited<ReturnType<KeyLogPage['timeKeyLogRound']>>;
    const measured: Round[] = [];
    for (let i = 0; i < rounds; i++) measured.push(await timeOneRound());
    const of = (pick: (r: Round) => number, digits: number) => round(median(measured.map(pick)), digits);
    return {
      longLogMs: of((r) => r.longLogMs, 1),
      chatListMs: of((r) => r.chatListMs, 1),
      sendMs: of((r) => r.sendMs, 3),
      sendWithChecksMs: of((r) => r.sendWithChecksMs, 3),
      addedPerSendMs: of((r) => r.sendWithChecksMs - r.sendMs, 3),
    };
  });

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runKeyLogBench(Number(process.argv[2] ?? 5)).then(
    (result) => {
      console.log('Key logs in Chromium (median ms)');
      console.table(result);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
