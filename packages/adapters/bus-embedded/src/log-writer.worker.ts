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
  /** A module whose `openCommitCompanion` shares this thread's connection (`CommitCompanion`). */
  companion?: string;
}

/**
 * What another store keeping its data in the log's file does on this thread (the read models,
 * in embedded mode): `apply` stores a commit's payload inside the commit's transaction (a
 * throw rolls the whole commit back); `handle` answers one of its own requests, in a
 * transaction of its own.
 */
export interface CommitCompanion {
  apply(payload: unknown): void;
  handle(request: unknown): unknown;
}

/** Durable events whose content a commit blanks (erasures asked for while it was prepared). */
export interface Erasure {
  context: string;
  positions: number[];
}

/** One group commit: column arrays, one entry per event. */
export interface CommitRequest {
  type: 'commit';
  contexts: string[];
  positions: number[];
  streams: string[];
  eventIds: string[];
  events: string[];
  /** Erased in the same transaction, after the events are in. */
  erasures?: Erasure[];
  /** Stored by the companion in the same transaction. */
  companion?: unknown;
}

/** A request of the companion's own. */
export interface CompanionRequest {
  type: 'companion';
  request: unknown;
}

/** Overwrites durable events' content for good (the rows and positions stay). */
export interface EraseRequest {
  type: 'erase';
  context: string;
  positions: number[];
}

export type ToWriter = CommitRequest | EraseRequest | CompanionRequest | { type: 'close' };

export type FromWriter =
  | { type: 'ready' }
  | { type: 'committed'; milliseconds: number }
  | { type: 'answered'; answer: unknown }
  | { type: 'failed'; message: string; code: number | undefined }
  | { type: 'closed' };

const { file, pageLimit, companion: companionModule } = workerData as WriterData;
const port = parentPort!;
const reply = (message: FromWriter) => port.postMessage(message);

const db = openLogDatabase(file);
db.exec('PRAGMA synchronous = FULL');
// An erased event leaves no copy in the file's free space: SQLite zeroes it. Earlier page images
// can stay in the WAL until it wraps around after the next checkpoints.
db.exec('PRAGMA secure_delete = ON');
const insert = db.prepare(insertEventSql);
const blank = db.prepare("UPDATE events SET event = '' WHERE context = ? AND position = ?");
const companion: CommitCompanion | null = companionModule
  ? (
      (await import(companionModule)) as { openCommitCompanion(db: unknown): CommitCompanion }
    ).openCommitCompanion(db)
  : null;
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

// The WAL still holds the pages as they were: fold it into the file and cut it to nothing, so
// no copy of the erased content stays on disk (rare: deletions only).
const foldWal = () => db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();

const commit = (request: CommitRequest) => {
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
    for (const { context, positions } of request.erasures ?? [])
      for (const position of positions) blank.run(context, position);
    if (request.companion !== undefined) companion!.apply(request.companion);
  });
  if (request.erasures?.length) foldWal();
};

const erase = ({ context, positions }: EraseRequest) => {
  transaction(() => {
    for (const position of positions) blank.run(context, position);
  });
  foldWal();
};

const answer = ({ request }: CompanionRequest) => {
  try {
    if (pageLimit) applyPageLimit();
    reply({ type: 'answered', answer: companion!.handle(request) });
  } catch (error) {
    reply({ type: 'failed', message: (error as Error).message, code: sqliteCode(error) });
  }
};

port.on('message', (message: ToWriter) => {
  if (message.type === 'commit') return commit(message);
  if (message.type === 'erase') return erase(message);
  if (message.type === 'companion') return answer(message);
  db.close();
  reply({ type: 'closed' });
  port.close();
});
reply({ type: 'ready' });
