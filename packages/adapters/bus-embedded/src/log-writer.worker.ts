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

export type ToWriter = CommitRequest | { type: 'close' };

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
const insert = db.prepare(insertEventSql);
/** SQLite refuses to grow the file past this many pages with SQLITE_FULL, as a full disk does. */
const applyPageLimit = () => {
  const limit = Atomics.load(pageLimit!, 0);
  const pages = Number(db.prepare('PRAGMA page_count').get()!.page_count);
  db.exec(`PRAGMA max_page_count = ${limit < 0 ? 4294967294 : pages + limit}`);
};

const commit = (request: CommitRequest) => {
  const started = performance.now();
  try {
    if (pageLimit) applyPageLimit();
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < request.positions.length; i++) {
      insert.run(
        request.contexts[i]!,
        request.positions[i]!,
        request.streams[i]!,
        request.eventIds[i]!,
        request.events[i]!,
      );
    }
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

port.on('message', (message: ToWriter) => {
  if (message.type === 'commit') return commit(message);
  db.close();
  reply({ type: 'closed' });
  port.close();
});
reply({ type: 'ready' });
