import { constants, createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { deepFreeze, DomainError, type DomainEvent } from '@veil/contracts';
import type { AppendResult, Logger, RecordedEvent } from '@veil/ports';

/**
 * One context's append-only log: a JSON-lines file (`{"p":position,"e":event}` per line) plus
 * an in-memory index. Appends are acknowledged only after their bytes are whole on disk;
 * concurrent appends share one write and one fsync (group commit), which keeps thousands of
 * appends per second possible on an ordinary disk.
 *
 * The version check and position assignment happen synchronously when `append` is called, so
 * two appends with the same expected version can never both pass. Reads see accepted events
 * at once; subscribers are told only about durable ones (`onDurable`). A write that fails (a
 * full disk, an I/O error) takes back every event not yet durable, cuts the file back to its
 * last whole record and lets the next append try again (`write-failure` below).
 */
export interface ContextLog {
  append(event: DomainEvent, expectedVersion: number | undefined): Promise<AppendResult>;
  /** Position of the newest durable event (0 when empty). */
  durableHead(): number;
  /** The recorded event at a position, frozen; null once it is erased. */
  at(position: number): RecordedEvent | null;
  /** Overwrites durable events on disk and drops them from the index (`erase` in the port). */
  erase(positions: readonly number[]): Promise<void>;
  streamPositions(streamId: string): readonly number[];
  onDurable(listener: () => void): () => void;
  close(): Promise<void>;
}

/** The file operations the log uses; a test wraps a real handle to inject disk faults. */
export interface LogFileHandle {
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

interface Pending {
  bytes: Buffer;
  position: number;
  result: AppendResult;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** Thrown at open: a record that is not the torn tail of a crash. */
export class DamagedLogError extends Error {
  constructor(file: string, line: number, offset: number, why: string) {
    super(
      `The event log ${file} is damaged at line ${line} (byte ${offset}): ${why}. ` +
        'Veil will not start on it, because cutting it there would drop every event after it. ' +
        'Restore the file from a backup; or, keeping a copy and accepting the loss of the events ' +
        `from that line on, cut it with: truncate -s ${offset} ${file}`,
    );
    this.name = 'DamagedLogError';
  }
}

/**
 * An erased event's line: its position and nothing else, padded with spaces to the length of the
 * line it replaces, so it is overwritten in place and every other line keeps its byte offset.
 */
const erasedLine = (position: number, length: number): Buffer => {
  const record = JSON.stringify({ p: position, erased: true });
  return Buffer.from(record.padEnd(length, ' '));
};

interface StoredRecord {
  p: number;
  /** null: erased. */
  e: DomainEvent | null;
  /** Byte offset of the line in the file, and its length without the newline. */
  offset: number;
  length: number;
}

/**
 * Reads the log line by line (it can outgrow a single string). Bytes after the last newline are
 * the torn tail of an append that was never acknowledged (the crash came before its write
 * finished) and are left out; a whole line that does not hold the next record is damage.
 */
const readRecords = async (file: string) => {
  const records: StoredRecord[] = [];
  let goodBytes = 0;
  const take = (line: string, lineNumber: number) => {
    let record: { p?: unknown; e?: unknown; erased?: unknown };
    try {
      record = JSON.parse(line) as { p?: unknown; e?: unknown; erased?: unknown };
    } catch {
      throw new DamagedLogError(file, lineNumber, goodBytes, 'the line is not a JSON record');
    }
    const holdsEvent = typeof record?.e === 'object' && record.e !== null;
    if (record?.p !== records.length + 1 || !(holdsEvent || record.erased === true))
      throw new DamagedLogError(
        file,
        lineNumber,
        goodBytes,
        `it does not hold position ${records.length + 1}`,
      );
    const length = Buffer.byteLength(line);
    records.push({
      p: record.p,
      e: holdsEvent ? (record.e as DomainEvent) : null,
      offset: goodBytes,
      length,
    });
    goodBytes += length + 1;
  };

  const input = createReadStream(file);
  let endsWithNewline = true;
  input.on('data', (chunk) => (endsWithNewline = (chunk as Buffer).at(-1) === 0x0a));
  const lines = createInterface({ input, crlfDelay: Infinity });
  // One line is held back: only the last one can be torn, and that is known at the end.
  let held: string | undefined;
  let lineNumber = 0;
  for await (const line of lines) {
    if (held !== undefined) take(held, lineNumber);
    held = line;
    lineNumber++;
  }
  lines.close();
  if (held !== undefined && endsWithNewline) take(held, lineNumber);
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
  log: Logger;
  /** Told of every write (one group commit) that took longer than `slowWriteMs` to be durable. */
  onSlowWrite?(milliseconds: number, events: number): void;
  /** Told of every write (one group commit) once it is durable: how long it took, how many events. */
  onCommit?(milliseconds: number, events: number): void;
  /** Default 100: a stall that long, on its own, spends twice a 50 ms latency budget. */
  slowWriteMs?: number;
  /** Opens the file; tests wrap the real handle to inject faults. */
  openFile?(file: string, flags: number): Promise<LogFileHandle>;
}

const unwritable = () =>
  new DomainError('UNAVAILABLE', 'The event log cannot write to disk right now; nothing was stored');

/**
 * Writes all of `bytes`. A write may store fewer bytes than asked (a full disk stores what fits
 * and reports no error); the rest is written again, and the error the disk then gives, if any,
 * fails the whole batch.
 */
const writeWhole = async (handle: LogFileHandle, bytes: Buffer) => {
  for (let written = 0; written < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    if (bytesWritten <= 0) throw new Error('the disk stored no bytes of the write');
    written += bytesWritten;
  }
  if (!syncOnWrite) await handle.datasync();
};

export const openContextLog = async (
  context: string,
  file: string,
  { log, onSlowWrite, onCommit, slowWriteMs = 100, openFile = open }: ContextLogOptions,
): Promise<ContextLog> => {
  const handle = await openFile(file, openFlags);
  const { records, goodBytes } = await readRecords(file);
  if ((await handle.stat()).size !== goodBytes) {
    log.warn(
      { context, keptBytes: goodBytes },
      'cut the torn tail of an unacknowledged append from the event log',
    );
    await handle.truncate(goodBytes);
    await handle.sync();
  }

  /** By position - 1; null once erased. */
  const events: (RecordedEvent | null)[] = [];
  /** Where each durable event's line starts and how long it is (without the newline), by position - 1. */
  const lines: { offset: number; length: number }[] = [];
  const byStream = new Map<string, number[]>();
  const byEventId = new Map<string, number>();
  const index = (recorded: RecordedEvent) => {
    events.push(recorded);
    let positions = byStream.get(recorded.event.streamId);
    if (!positions) byStream.set(recorded.event.streamId, (positions = []));
    positions.push(recorded.position);
    byEventId.set(recorded.event.eventId, recorded.position);
  };
  /** Takes back every event after the durable head: they were never acknowledged. */
  const unindexAfter = (head: number) => {
    while (events.length > head) {
      const { event } = events.pop()!; // not durable yet, so never erased
      byStream.get(event.streamId)!.pop();
      if (!byStream.get(event.streamId)!.length) byStream.delete(event.streamId);
      byEventId.delete(event.eventId);
    }
  };
  for (const { p, e, offset, length } of records) {
    lines.push({ offset, length });
    if (e) index({ context, position: p, event: e });
    else events.push(null);
  }

  let durable = events.length;
  let durableBytes = goodBytes;
  /** Appends not yet durable, by position: a duplicate of one waits for it. */
  const appending = new Map<number, Promise<AppendResult>>();
  let pending: Pending[] = [];
  let flushing: Promise<void> | null = null;
  /** Set after a failed write: the file may end in part of it, to be cut before the next write. */
  let damaged = false;
  let repairing: Promise<void> | null = null;
  /** Appends refused since the disk last failed (0: the log is healthy). */
  let refusedSinceFailure = 0;
  const listeners = new Set<() => void>();

  const repair = async () => {
    try {
      await handle.truncate(durableBytes);
      await handle.sync();
      damaged = false;
    } catch (error) {
      log.error(
        { err: error, context },
        'the event log could not cut back a failed write; the next append tries again',
      );
    }
  };
  const startRepair = () => (repairing ??= repair().finally(() => (repairing = null)));

  const refuse = (failed: Pending[], error: unknown) => {
    // Nothing in this batch, or queued behind it, is acknowledged or kept: readers that saw
    // these events early lose them again, and the file is cut back to whole records.
    unindexAfter(durable);
    damaged = true;
    if (!refusedSinceFailure)
      log.error(
        { err: error, context, durableHead: durable },
        'the event log cannot write to disk; appends are refused until a write succeeds',
      );
    refusedSinceFailure += failed.length;
    for (const p of failed) {
      appending.delete(p.result.position);
      p.reject(unwritable());
    }
    void startRepair();
  };

  const flush = async () => {
    while (pending.length) {
      const batch = pending;
      pending = [];
      const bytes = Buffer.concat(batch.map((p) => p.bytes));
      try {
        const started = performance.now();
        await writeWhole(handle, bytes);
        const took = performance.now() - started;
        onCommit?.(took, batch.length);
        if (took > slowWriteMs) onSlowWrite?.(took, batch.length);
      } catch (error) {
        const failed = [...batch, ...pending];
        pending = [];
        refuse(failed, error);
        return;
      }
      durable += batch.length;
      for (const p of batch) {
        lines[p.position - 1] = { offset: durableBytes, length: p.bytes.length - 1 };
        durableBytes += p.bytes.length;
      }
      if (refusedSinceFailure) {
        log.info({ context, refusedAppends: refusedSinceFailure }, 'the event log writes to disk again');
        refusedSinceFailure = 0;
      }
      for (const p of batch) {
        appending.delete(p.result.position);
        p.resolve(p.result);
      }
      for (const listener of listeners) listener();
    }
  };

  const appendNow = (event: DomainEvent, expectedVersion: number | undefined): Promise<AppendResult> => {
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
    index({ context, position, event });
    const appended = new Promise<AppendResult>((resolve, reject) => {
      const bytes = Buffer.from(`${JSON.stringify({ p: position, e: event })}\n`);
      pending.push({ bytes, position, result: { position, duplicate: false }, resolve, reject });
      flushing ??= flush().finally(() => (flushing = null));
    });
    appending.set(position, appended);
    return appended;
  };

  /**
   * Erasing writes inside the file, which the append handle cannot do (O_APPEND sends every
   * write to the end, whatever its offset): a second handle, opened on first use.
   */
  let eraser: Promise<FileHandle> | null = null;
  const erase = async (positions: readonly number[]) => {
    const targets = [...new Set(positions)].filter(
      (position) => position >= 1 && position <= durable && events[position - 1],
    );
    if (!targets.length) return;
    eraser ??= open(file, constants.O_WRONLY | (constants.O_DSYNC ?? 0));
    const handle = await eraser;
    for (const position of targets) {
      const recorded = events[position - 1];
      if (!recorded) continue; // erased meanwhile
      const { offset, length } = lines[position - 1]!;
      const blank = erasedLine(position, length);
      await handle.write(blank, 0, blank.length, offset);
      if (!syncOnWrite) await handle.datasync();
      events[position - 1] = null;
      const streamPositions = byStream.get(recorded.event.streamId);
      if (streamPositions) {
        const remaining = streamPositions.filter((p) => p !== position);
        if (remaining.length) byStream.set(recorded.event.streamId, remaining);
        else byStream.delete(recorded.event.streamId);
      }
    }
  };

  return {
    append(event, expectedVersion) {
      if (!damaged) return appendNow(event, expectedVersion);
      // After a failed write: cut the file back first (once, however many appends wait), then
      // check and place this event against what is really on disk.
      return startRepair().then(() => {
        if (!damaged) return appendNow(event, expectedVersion);
        refusedSinceFailure++;
        throw unwritable();
      });
    },
    durableHead: () => durable,
    // Handed out as they are, frozen (on first use, so a long log opens quickly): a subscriber
    // that tried to change an event would throw instead of changing the log.
    at: (position) => {
      const recorded = events[position - 1];
      return recorded ? deepFreeze(recorded) : null;
    },
    erase,
    streamPositions: (streamId) => byStream.get(streamId) ?? [],
    onDurable(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await flushing;
      await repairing;
      await handle.close();
      if (eraser) await (await eraser).close();
    },
  };
};
