import { DatabaseSync } from 'node:sqlite';

/**
 * The embedded event log's file: one SQLite database (`event-log.sqlite`, WAL journal) holding
 * every context's events, one row each, with the indexes that answer the log's questions from
 * disk: a context's events by position, a stream's events, an event id. Nothing of the log is
 * held in the heap beyond SQLite's page cache and a bounded cache of the newest events.
 *
 * Loaded by the writer's worker thread too, so it imports Node's built-ins only.
 */
export const logSchemaVersion = 1;

export const logFileName = 'event-log.sqlite';

const schema = `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    context TEXT NOT NULL,
    position INTEGER NOT NULL,
    stream TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event TEXT NOT NULL,
    UNIQUE (context, position),
    UNIQUE (context, event_id)
  );
  CREATE INDEX events_by_stream ON events (context, stream, position);
`;

export const insertEventSql =
  'INSERT INTO events (context, position, stream, event_id, event) VALUES (?, ?, ?, ?, ?)';

const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;
export const SQLITE_FULL = 13;

/** SQLite's primary result code of an error thrown by node:sqlite, if it is one. */
export const sqliteCode = (error: unknown): number | undefined => {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
};

/** The event log's file cannot be used as it is; the message names it and the way out. */
export class EventLogFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventLogFileError';
  }
}

const damaged = (file: string, error: unknown) =>
  new EventLogFileError(
    `The event log ${file} is damaged (${(error as Error).message}). Veil will not run on it, ` +
      'because going on could lose acknowledged events. Restore it from a backup; or save the ' +
      `events SQLite can still read into a new file with: sqlite3 ${file} .recover | sqlite3 ${file}.recovered ` +
      `and, keeping the damaged file elsewhere, move ${file}.recovered in its place (and remove ${file}-wal).`,
    { cause: error },
  );

/** Turns SQLite's "corrupt" and "not a database" into the error that names the file and the way out. */
export const explainLogFileError = (file: string, error: unknown): unknown => {
  const code = sqliteCode(error);
  return code === SQLITE_CORRUPT || code === SQLITE_NOTADB ? damaged(file, error) : error;
};

/**
 * Opens the log's file, creating its schema when the file is new, and refuses a file written by
 * a newer version, one that is not an event log and one that is damaged, each with an error that
 * names the file. WAL journal: readers on other connections see each commit once it is made, and
 * a crash in the middle of a commit leaves the file as it was before it (SQLite's recovery drops
 * the torn end of the journal when the file is next opened).
 */
export const openLogDatabase = (file: string): DatabaseSync => {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { timeout: 5_000 });
    db.prepare('PRAGMA journal_mode = WAL').get();
    const version = Number(db.prepare('PRAGMA user_version').get()!.user_version);
    if (version > logSchemaVersion)
      throw new EventLogFileError(
        `The event log ${file} was written by a newer version of Veil (schema ${version}; this ` +
          `version reads ${logSchemaVersion}). Run that version or a newer one; this one will not change the file.`,
      );
    if (version === 0) {
      db.exec('BEGIN IMMEDIATE');
      const tables = Number(db.prepare('SELECT count(*) AS n FROM sqlite_schema').get()!.n);
      if (tables > 0) {
        db.exec('ROLLBACK');
        throw new EventLogFileError(
          `${file} is not a Veil event log (it has tables but no schema version). Move it away.`,
        );
      }
      db.exec(schema);
      db.exec(`PRAGMA user_version = ${logSchemaVersion}`);
      db.exec('COMMIT');
    }
    return db;
  } catch (error) {
    db?.close();
    throw explainLogFileError(file, error);
  }
};

/**
 * Reads the newest row and the newest entries of the indexes it is in: the pages every append
 * and every start touch. A damaged file is found here, at start, rather than by the first append
 * (a page deeper in the file is found when it is read, with the same error). A full check of
 * every page (`PRAGMA integrity_check`) reads the whole file, far too slow for each start.
 */
export const checkNewestPages = (db: DatabaseSync, file: string) => {
  const newest = db.prepare('SELECT context, stream, event FROM events ORDER BY seq DESC LIMIT 1').get() as
    { context: string; stream: string; event: string } | undefined;
  if (!newest) return;
  try {
    // An erased event is blank on purpose (`erase`): nothing of it to parse.
    if (newest.event !== '') JSON.parse(newest.event);
  } catch (error) {
    throw damaged(file, new Error(`its newest event is not JSON: ${(error as Error).message}`));
  }
  db.prepare('SELECT max(position) AS position FROM events WHERE context = ?').get(newest.context);
  db.prepare('SELECT max(position) AS position FROM events WHERE context = ? AND stream = ?').get(
    newest.context,
    newest.stream,
  );
};

/** An index over the log's rows that a reader of the log asks for (`EventLogOptions.indexes`). */
export interface LogIndex {
  name: string;
  /** `CREATE INDEX IF NOT EXISTS ...`: run at every start, it creates the index only once. */
  sql: string;
}

/**
 * Creates the indexes missing from the file, on the connection that opened it (before it only
 * reads). Building one over a large log takes seconds (2.7 s for a million messages), once: it
 * is said before and after. Each commit keeps the indexes in step from then on.
 */
export const createLogIndexes = (
  db: DatabaseSync,
  indexes: readonly LogIndex[],
  log: { info(fields: object, message: string): void },
) => {
  const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?");
  for (const index of indexes) {
    if (exists.get(index.name)) continue;
    log.info({ index: index.name }, 'indexing the event log');
    const started = performance.now();
    db.exec(index.sql);
    log.info({ index: index.name, ms: Math.round(performance.now() - started) }, 'event log indexed');
  }
};
