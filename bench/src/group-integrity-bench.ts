import path from 'node:path';
import { withBenchPage } from './browser-bundle.ts';
import type { GroupIntegrityPage } from './group-integrity-page.ts';
import { median, round } from './stats.ts';

/**
 * Signed group state and length padding where they run, in Chromium (Debian's, headless, driven
 * by playwright-core) with the same @veil/crypto the web client bundles: verifying a group chain
 * of 1,000 changes (what a member's browser does when it opens a group it has not verified
 * since it changed), and the added cost of length padding per message sent and per page of 100
 * messages read (decrypt and verify), each beside the same without padding. The Argon2id
 * unlock (the backup passphrase's parameters) is timed by key-backup-bench.ts.
 * Run alone: `node bench/src/group-integrity-bench.ts [rounds] [changes]`.
 */
export interface GroupIntegrityBenchResult {
  chainChanges: number;
  verifyChainMs: number;
  sendMs: number;
  paddedSendMs: number;
  historyPageMs: number;
  paddedHistoryPageMs: number;
}

/** Messages sealed per round, for the per-send means. */
const messagesPerRound = 100;

export const runGroupIntegrityBench = (rounds: number, changes = 1000): Promise<GroupIntegrityBenchResult> =>
  withBenchPage(
    path.join(import.meta.dirname, 'group-integrity-page.ts'),
    'timeGroupIntegrityRound',
    async (page) => {
      const timeOneRound = (size: { changes: number; messages: number }) =>
        page.evaluate(
          (options) => (window as unknown as GroupIntegrityPage).timeGroupIntegrityRound(options),
          size,
        );
      await timeOneRound({ changes: 10, messages: 10 }); // warm-up: the first use of each algorithm
      type Round = Awaited<ReturnType<GroupIntegrityPage['timeGroupIntegrityRound']>>;
      const measured: Round[] = [];
      for (let i = 0; i < rounds; i++)
        measured.push(await timeOneRound({ changes, messages: messagesPerRound }));
      const of = (pick: (r: Round) => number, digits: number) => round(median(measured.map(pick)), digits);
      return {
        chainChanges: changes,
        verifyChainMs: of((r) => r.verifyChainMs, 1),
        sendMs: of((r) => r.sendMs, 3),
        paddedSendMs: of((r) => r.paddedSendMs, 3),
        historyPageMs: of((r) => r.historyPageMs, 1),
        paddedHistoryPageMs: of((r) => r.paddedHistoryPageMs, 1),
      };
    },
  );

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runGroupIntegrityBench(Number(process.argv[2] ?? 5), Number(process.argv[3] ?? 1000)).then(
    (result) => {
      console.log('Signed group state and length padding in Chromium (median ms)');
      console.table(result);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
