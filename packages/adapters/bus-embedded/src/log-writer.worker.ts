import { parentPort, workerData } from 'node:worker_threads';
import { insertEventSql, openLogDatabase, sqliteCode } from './log-database.ts';

/**
 * The event log's only writer, on a thread of its own: node:sqlite is synchronous, and a commit
 * waits for fsync, which must not stop the event loop that serves sockets and reads. Each
 * message is one group commit, one transaction made durable (`synchronous = FULL`) before the
 * answer; a commit that fails is rolled back whole, so the file holds only acknowledged events.
 */
export interface WriterData {
  file: string;
  /** For fault tests: pages the file may still grow by (-1: no limit), read before each commit. */
  pageLimit?: Int32Array;
}

/** One group commit: column arrays, one entry per event. */
export interface CommitRequest {
  type: 'commit';
  contexts: string[];
  positions: number[];
  streams: string[];
  eventIds: string[];
  events: string[];
}

/** Overwrites durable events' content for good (the rows and positions stay). */
export interface EraseRequest {
  type: 'erase';
  context: string;
  positions: number[];
}

export type ToWriter = CommitRequest | EraseRequest | { type: 'close' };

export type FromWriter =
  | { type: 'ready' }
  | { type: 'committed'; milliseconds: number }
  | { type: 'failed'; message: string; code: number | undefined }
  | { type: 'closed' };

const { file, pageLimit } = workerData as WriterData;
const port = parentPort!;
const reply = (message: FromWriter) => port.postMessage(message);

const db = openLogDatabase(file);
db.exec('PRAGMA synchronous = FULL');
// An erased event leaves no copy in the file's free space: SQLite zeroes it. Earlier page images
// can stay in the WAL until it wraps around after the next checkpoints.
db.exec('PRAGMA secure_delete = ON');
const insert = db.prepare(insertEventSql);
const blank = db.prepare("UPDATE events SET event = '' WHERE context = ? AND position = ?");
/** SQLite refuses to grow the file past this many pages with SQLITE_FULL, as a full disk does. */
const applyPageLimit = () => {
  const limit = Atomics.load(pageLimit!, 0);
  const pages = Number(db.prepare('PRAGMA page_count').get()!.page_count);
  db.exec(`PRAGMA max_page_count = ${limit < 0 ? 4294967294 : pages + limit}`);
};

/** Runs `write` in one durable transaction and answers; a failure rolls all of it back. */
const transaction = (write: () => void) => {
  const started = performance.now();
  try {
    if (pageLimit) applyPageLimit();
    db.exec('BEGIN IMMEDIATE');
    write();
    db.exec('COMMIT');
    reply({ type: 'committed', milliseconds: performance.now() - started });
  } catch (error) {
    try {
      if (db.isTransaction) db.exec('ROLLBACK');
    } catch {
      // SQLite rolls a failed transaction back itself when the file is next written or opened.
    }
    reply({ type: 'failed', message: (error as Error).message, code: sqliteCode(error) });
  }
};

const commit = (request: CommitRequest) =>
  transaction(() => {
    for (let i = 0; i < request.positions.length; i++) {
      insert.run(
        request.contexts[i]!,
        request.positions[i]!,
        request.streams[i]!,
        request.eventIds[i]!,
        request.events[i]!,
      );
    }
  });

const erase = ({ context, positions }: EraseRequest) => {
  transaction(() => {
    for (const position of positions) blank.run(context, position);
  });
  // The WAL still holds the pages as they were: fold it into the file and cut it to nothing, so
  // no copy of the erased content stays on disk (rare: deletions only).
  db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
};

port.on('message', (message: ToWriter) => {
  if (message.type === 'commit') return commit(message);
  if (message.type === 'erase') return erase(message);
  db.close();
  reply({ type: 'closed' });
  port.close();
});
reply({ type: 'ready' });
