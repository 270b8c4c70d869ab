import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { registerFoldCase } from './conditions.ts';
import { SQLITE_BUSY, SQLITE_CORRUPT, SQLITE_NOTADB, sqliteCode } from './sql.ts';

/**
 * The read-model database file. Read models can always be rebuilt from the event log, so the
 * settings favour speed where that is safe:
 *  - WAL journal, `synchronous = NORMAL`: a commit is atomic and the file is never corrupted by a
 *    crash or a power cut; a power cut may lose the last commits, and the projections then apply
 *    those events again from their checkpoints, which are written in the same transactions as
 *    their data (so never ahead of it).
 *  - One process owns the file from open to close (`holdFileLock`, a lock on `<file>.lock`), so a
 *    second Veil on the same DATA_DIR, or `npm run rebuild` beside a running Veil, stops with a
 *    clear error. Inside it, a writer thread and the reading thread each have a connection.
 * The schema version is `PRAGMA user_version`; a file from a newer version, or one that is not a
 * database, stops the start with the file's name and the way out (`npm run rebuild`).
 */
export const schemaVersion = 1;

export const rebuildCommand = 'npm run rebuild';

/** Why the read-model file cannot be used: only `in-use` is not cured by a rebuild. */
export type ReadModelFileProblem = 'damaged' | 'newer' | 'foreign' | 'in-use';

/** The read-model file cannot be used as it is; the message says why and what to do. */
export class ReadModelFileError extends Error {
  readonly problem: ReadModelFileProblem;
  constructor(problem: ReadModelFileProblem, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.problem = problem;
    this.name = 'ReadModelFileError';
  }
}

const unreadable = (file: string, error: unknown) =>
  new ReadModelFileError(
    'damaged',
    `The read-model database ${file} is damaged (${(error as Error).message}). ` +
      `The read models are rebuilt from the event log by: ${rebuildCommand}`,
    { cause: error },
  );

/** Turns SQLite's "corrupt" and "not a database" into the error that names the file and the fix. */
export const explainFileErrors = (file: string, error: unknown): unknown => {
  const code = sqliteCode(error);
  return code === SQLITE_CORRUPT || code === SQLITE_NOTADB ? unreadable(file, error) : error;
};

const metaSchema = `
  CREATE TABLE _veil_indexes (
    collection TEXT NOT NULL,
    spec TEXT NOT NULL,
    key_table TEXT NOT NULL UNIQUE,
    multikey INTEGER NOT NULL DEFAULT 0,
    non_ascii INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (collection, spec)
  );
`;

/**
 * Opens the read-model database. `shared`: the read models live in the embedded event log's
 * file, which has opened and checked it and owns its schema version; only the read models'
 * table of indexes is added to it.
 */
export const openDatabase = (file: string, options: { shared?: boolean } = {}): DatabaseSync => {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: 1_000 });
  try {
    db.prepare('PRAGMA journal_mode = WAL').get();
    db.exec('PRAGMA synchronous = NORMAL');
    // 64 MB of page cache (SQLite's default is 2 MB) keeps the indexes' upper pages in memory, and
    // a checkpoint every 16 MB of WAL instead of 4 MB means a quarter of the syncs when building.
    db.exec('PRAGMA cache_size = -65536');
    db.exec('PRAGMA wal_autocheckpoint = 4000');
    // A document replaced or deleted (a message deleted for everyone) leaves no copy in the
    // file's free space: SQLite zeroes it. Earlier page images can stay in the WAL until it
    // wraps around after the next checkpoints (docs/storage.md).
    db.exec('PRAGMA secure_delete = ON');
    if (options.shared) {
      db.exec(metaSchema.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS'));
      registerFoldCase(db);
      return db;
    }
    db.exec('BEGIN IMMEDIATE');
    const version = Number(db.prepare('PRAGMA user_version').get()!.user_version);
    if (version > schemaVersion) {
      throw new ReadModelFileError(
        'newer',
        `The read-model database ${file} was written by a newer version of Veil (schema ${version}; ` +
          `this version reads ${schemaVersion}). Run the newer version, or rebuild the read models ` +
          `from the event log with this one: ${rebuildCommand}`,
      );
    }
    if (version === 0) {
      const tables = Number(db.prepare('SELECT count(*) AS n FROM sqlite_schema').get()!.n);
      if (tables > 0) {
        throw new ReadModelFileError(
          'foreign',
          `${file} is not a Veil read-model database (it has tables but no schema version). ` +
            `Move it away, or replace it with read models rebuilt from the event log: ${rebuildCommand}`,
        );
      }
      db.exec(metaSchema);
      db.exec(`PRAGMA user_version = ${schemaVersion}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.close();
    throw explainFileErrors(file, error);
  }
  registerFoldCase(db);
  return db;
};

const lockFileOf = (file: string) => `${file}.lock`;

/**
 * Makes this process the read-model file's only user until `release`: a lock on `<file>.lock`,
 * held by a connection in SQLite's exclusive locking mode. The operating system drops it when
 * the process ends, however it ends, so a crash never leaves the data dir locked.
 */
export const holdFileLock = (file: string): { release(): void } => {
  if (file === ':memory:') return { release() {} };
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = new DatabaseSync(lockFileOf(file), { timeout: 0 });
  try {
    lock.exec('PRAGMA locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
    // A write, so the exclusive lock is taken now and kept (exclusive locking mode never drops it).
    lock.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER)');
    lock.exec('DELETE FROM owner');
    lock.prepare('INSERT INTO owner (pid) VALUES (?)').run(process.pid);
    lock.exec('COMMIT');
  } catch (error) {
    lock.close();
    if (sqliteCode(error) === SQLITE_BUSY)
      throw new ReadModelFileError(
        'in-use',
        `The data file ${file} is in use by another Veil process (same DATA_DIR). ` +
          'Stop that process first.',
        { cause: error },
      );
    throw error;
  }
  return { release: () => lock.close() };
};

/**
 * Deletes the read-model file (and its WAL), for a rebuild from scratch, which is also the way
 * out of a damaged file or one from a newer version. Refuses while another process uses it.
 */
export const removeDatabase = (file: string) => {
  const lock = holdFileLock(file);
  try {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  } finally {
    lock.release();
  }
};
