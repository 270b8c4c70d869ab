import { constants, createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { deepFreeze, DomainError, type DomainEvent } from '@veil/contracts';
import type { AppendResult, RecordedEvent } from '@veil/ports';

/**
 * One context's append-only log: a JSON-lines file (`{"p":position,"e":event}` per line) plus
 * an in-memory index. Appends are acknowledged only after the bytes are fsynced; concurrent
 * appends share one write and one fsync (group commit), which keeps thousands of appends per
 * second possible on an ordinary disk.
 *
 * The version check and position assignment happen synchronously when `append` is called, so
 * two appends with the same expected version can never both pass. Reads see accepted events
 * at once; subscribers are told only about durable ones (`onDurable`).
 */
export interface ContextLog {
  append(event: DomainEvent, expectedVersion: number | undefined): Promise<AppendResult>;
  /** Position of the newest durable event (0 when empty). */
  durableHead(): number;
  /** The recorded event at a position, frozen. */
  at(position: number): RecordedEvent;
  streamPositions(streamId: string): readonly number[];
  onDurable(listener: () => void): () => void;
  close(): Promise<void>;
}

interface Pending {
  line: string;
  result: AppendResult;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** Reads the log line by line (it can outgrow a single string); stops at the first torn line. */
const readRecords = async (file: string) => {
  const records: { p: number; e: DomainEvent }[] = [];
  let goodBytes = 0;
  const size = (await stat(file)).size;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const lineBytes = Buffer.byteLength(line) + 1;
    // A last line without its newline, or one that does not parse, belongs to an append that
    // was never acknowledged: the crash came before its fsync finished.
    if (goodBytes + lineBytes > size) break;
    try {
      records.push(JSON.parse(line) as { p: number; e: DomainEvent });
    } catch {
      break;
    }
    goodBytes += lineBytes;
  }
  lines.close();
  return { records, goodBytes };
};

/**
 * With O_DSYNC each write returns only once its bytes are on disk (as if fdatasync followed), so
 * a batch costs one trip to the thread pool instead of two (write, then fdatasync); under load
 * each trip also waits for a busy event loop. Where the flag does not exist, an explicit
 * fdatasync follows the write.
 */
const syncOnWrite = constants.O_DSYNC !== undefined;
const openFlags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_DSYNC ?? 0);

export interface ContextLogOptions {
  /** Told of every write (one group commit) that took longer than `slowWriteMs` to be durable. */
  onSlowWrite?(milliseconds: number, events: number): void;
  /** Default 100: a stall that long, on its own, spends twice a 50 ms latency budget. */
  slowWriteMs?: number;
}

export const openContextLog = async (
  context: string,
  file: string,
  { onSlowWrite, slowWriteMs = 100 }: ContextLogOptions = {},
): Promise<ContextLog> => {
  const handle: FileHandle = await open(file, openFlags);
  const { records, goodBytes } = await readRecords(file);
  if ((await handle.stat()).size !== goodBytes) {
    await handle.truncate(goodBytes);
    await handle.sync();
  }

  const events: RecordedEvent[] = [];
  const byStream = new Map<string, number[]>();
  const byEventId = new Map<string, number>();
  const index = (recorded: RecordedEvent) => {
    events.push(recorded);
    let positions = byStream.get(recorded.event.streamId);
    if (!positions) byStream.set(recorded.event.streamId, (positions = []));
    positions.push(recorded.position);
    byEventId.set(recorded.event.eventId, recorded.position);
  };
  for (const { p, e } of records) index({ context, position: p, event: e });

  let durable = events.length;
  /** Appends not yet durable, by position: a duplicate of one waits for it. */
  const appending = new Map<number, Promise<AppendResult>>();
  let pending: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let failure: unknown = null;
  const listeners = new Set<() => void>();

  const flush = async () => {
    while (pending.length) {
      const batch = pending;
      pending = [];
      try {
        const started = performance.now();
        await handle.write(batch.map((p) => p.line).join(''));
        if (!syncOnWrite) await handle.datasync();
        const took = performance.now() - started;
        if (took > slowWriteMs) onSlowWrite?.(took, batch.length);
        durable += batch.length;
        for (const p of batch) {
          appending.delete(p.result.position);
          p.resolve(p.result);
        }
      } catch (error) {
        // The disk failed: nothing in this batch (or after it) is acknowledged, and the log
        // refuses further appends rather than acknowledge events it may not hold.
        failure = error;
        for (const p of [...batch, ...pending]) {
          appending.delete(p.result.position);
          p.reject(error);
        }
        pending = [];
        return;
      }
      for (const listener of listeners) listener();
    }
  };

  return {
    append(event, expectedVersion) {
      if (failure)
        return Promise.reject(new DomainError('UNAVAILABLE', 'The event log cannot write to disk'));
      const duplicate = byEventId.get(event.eventId);
      if (duplicate !== undefined) {
        // Answered only once the stored copy is durable: a retry must not be acknowledged
        // while the original still waits for its fsync.
        const stored = { position: duplicate, duplicate: true };
        return duplicate <= durable ? Promise.resolve(stored) : appending.get(duplicate)!.then(() => stored);
      }
      const positions = byStream.get(event.streamId);
      const version = positions?.[positions.length - 1] ?? 0;
      if (expectedVersion !== undefined && expectedVersion !== version) {
        return Promise.reject(
          new DomainError(
            'VERSION_CONFLICT',
            `Stream ${event.streamId} is at version ${version}, expected ${expectedVersion}`,
          ),
        );
      }
      const position = events.length + 1;
      const recorded: RecordedEvent = { context, position, event };
      index(recorded);
      const appended = new Promise<AppendResult>((resolve, reject) => {
        const line = `${JSON.stringify({ p: position, e: event })}\n`;
        pending.push({ line, result: { position, duplicate: false }, resolve, reject });
        flushing ??= flush().finally(() => (flushing = null));
      });
      appending.set(position, appended);
      return appended;
    },
    durableHead: () => durable,
    // Handed out as they are, frozen (on first use, so a long log opens quickly): a subscriber
    // that tried to change an event would throw instead of changing the log.
    at: (position) => deepFreeze(events[position - 1]!),
    streamPositions: (streamId) => byStream.get(streamId) ?? [],
    onDurable(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await flushing;
      await handle.close();
    },
  };
};
