import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from '@veil/ports';

/**
 * Heap per byte of log once it is read: 1,000,000 one-to-one messages are 1.25 GB of log and
 * 1.69 GB of heap (the replay bench, with the read models in SQLite; 1.95 GB when they were
 * in memory too).
 */
const HEAP_BYTES_PER_LOG_BYTE = 1.35;

const megabytes = (bytes: number) => Math.round(bytes / 1e6);

/**
 * Embedded mode holds every event in memory: the log's index (the read models are in SQLite, on
 * disk). A log that needs more than half the heap is reported at start, with what to do, so that
 * a growing deployment learns it before a start runs out of memory while reading the log.
 */
export const warnIfLogOutgrowsHeap = async (
  dataDir: string,
  log: Logger,
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): Promise<void> => {
  let logBytes = 0;
  for (const file of await readdir(dataDir)) {
    if (file.endsWith('.jsonl')) logBytes += (await stat(path.join(dataDir, file))).size;
  }
  const neededBytes = logBytes * HEAP_BYTES_PER_LOG_BYTE;
  if (neededBytes <= heapLimitBytes / 2) return;
  log.warn(
    { logMB: megabytes(logBytes), neededMB: megabytes(neededBytes), heapLimitMB: megabytes(heapLimitBytes) },
    'the event log needs more than half the heap in embedded mode, which holds it all in memory: ' +
      'raise the limit (NODE_OPTIONS=--max-old-space-size=<MB>) or move to cluster mode ' +
      '(docs/decisions.md, "Embedded mode")',
  );
};
