import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { DomainEvent } from '@veil/contracts';

/**
 * The event log's earlier format, read once to import it: one `<context>.jsonl` file per
 * context, one `{"p":position,"e":event}` line per event, positions from 1 without gaps.
 */
export interface JsonlRecord {
  p: number;
  /** null: erased (`{"p":N,"erased":true}`, padded with spaces). */
  e: DomainEvent | null;
  /** Bytes of the file read once this record is taken (for progress). */
  bytesRead: number;
}

/** A record that is not the torn tail of a crash. */
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
 * Yields the file's records in order, line by line (it can outgrow a single string). Bytes after
 * the last newline are the torn tail of an append that was never acknowledged (the crash came
 * before its write finished) and are left out; a whole line that does not hold the next record
 * is damage, and stops the read with an error naming the line, the byte and the way out.
 */
export async function* readJsonlLog(file: string): AsyncGenerator<JsonlRecord> {
  const input = createReadStream(file);
  let endsWithNewline = true;
  input.on('data', (chunk) => (endsWithNewline = (chunk as Buffer).at(-1) === 0x0a));
  const lines = createInterface({ input, crlfDelay: Infinity });
  let goodBytes = 0;
  let expected = 1;
  const take = (line: string, lineNumber: number): JsonlRecord => {
    let record: { p?: unknown; e?: unknown; erased?: unknown };
    try {
      record = JSON.parse(line) as { p?: unknown; e?: unknown; erased?: unknown };
    } catch {
      throw new DamagedLogError(file, lineNumber, goodBytes, 'the line is not a JSON record');
    }
    const holdsEvent = typeof record?.e === 'object' && record.e !== null;
    if (record?.p !== expected || !(holdsEvent || record.erased === true))
      throw new DamagedLogError(file, lineNumber, goodBytes, `it does not hold position ${expected}`);
    expected++;
    goodBytes += Buffer.byteLength(line) + 1;
    return { p: record.p as number, e: holdsEvent ? (record.e as DomainEvent) : null, bytesRead: goodBytes };
  };
  // One line is held back: only the last one can be torn, and that is known at the end.
  let held: string | undefined;
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      if (held !== undefined) yield take(held, lineNumber);
      held = line;
      lineNumber++;
    }
    if (held !== undefined && endsWithNewline) yield take(held, lineNumber);
  } finally {
    lines.close();
    input.destroy();
  }
}
