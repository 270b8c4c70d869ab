import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbeddedBus } from '@veil/bus-embedded';
import type { Logger } from '@veil/ports';
import { meta } from './log-file.ts';
import { round, summarize } from './stats.ts';

/**
 * The embedded event log alone: `concurrency` appenders, each appending a one-to-one message
 * (the size real traffic has) as soon as its previous append is durable, for `seconds`. Group
 * commit makes the appends waiting together share one durable write; the figures are appends
 * per second, each append's time until it was acknowledged (p50, p99), the group commits'
 * sizes, and the heap after a full collection (with --expose-gc, as `npm run bench` runs).
 */
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

const heapUsedMB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round(process.memoryUsage().heapUsed / 1e6);
};

export const runLogAppendBench = async (concurrency: number, seconds: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-log-append-'));
  const commits: number[] = [];
  const bus = await createEmbeddedBus({
    dataDir,
    log: quiet,
    onCommit: (_context, _milliseconds, events) => commits.push(events),
  });
  const content = Buffer.alloc(96, 7).toString('base64');
  const key = Buffer.alloc(256, 9).toString('base64');
  const latencies: number[] = [];
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const heapBefore = heapUsedMB();
  const appender = async () => {
    while (performance.now() < until) {
      const i = next++;
      const messageId = `M${String(i).padStart(25, '0')}`;
      const event = {
        ...meta('MessageSent', `msg-${messageId}`, i),
        data: {
          messageId,
          chatId: 'C1',
          senderId: 'U1',
          content,
          iv: 'AAAA',
          encryptedKeys: { U1: key, U2: key },
        },
      };
      const started = performance.now();
      await bus.append('message', event);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, appender));
  const elapsed = (performance.now() - started) / 1000;
  const { p50, p99 } = summarize(latencies);
  const heapAfter = heapUsedMB();
  await bus.close();
  await rm(dataDir, { recursive: true, force: true });
  return {
    concurrency,
    appendsPerSecond: Math.round(latencies.length / elapsed),
    p50Ms: round(p50, 2),
    p99Ms: round(p99, 2),
    eventsPerCommit: round(latencies.length / Math.max(1, commits.length), 1),
    heapGrowthMB: heapAfter - heapBefore,
  };
};

if (import.meta.main) {
  const [concurrency = '64', seconds = '10'] = process.argv.slice(2);
  console.table([await runLogAppendBench(Number(concurrency), Number(seconds))]);
}
