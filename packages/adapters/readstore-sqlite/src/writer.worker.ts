import { parentPort, workerData } from 'node:worker_threads';
import { DuplicateKeyError, type Doc, type IndexSpec } from '@veil/ports';
import { openCollection, type SqliteCollection } from './collection.ts';
import { openDatabase } from './database.ts';
import { sqliteCode } from './sql.ts';

/**
 * The read-model file's only writer, on a thread of its own: SQLite's work for a write (the
 * documents, their index keys, the commit) was a third of the busy main thread in profiles, and
 * none of it needs the event loop. The thread that serves requests reads through a connection of
 * its own (WAL: readers see each commit once it is made).
 *
 * Each request carries every write that waited while the one before it ran (a group commit):
 * one transaction, each write in a savepoint of its own, so one write refused (a duplicate key)
 * takes nothing of the others with it.
 */
export interface WriterData {
  file: string;
}

/** One change, with a put's document already as JSON. */
export type WireChange =
  | { collection: string; id: string; json: string }
  | { collection: string; delete: string }
  | { collection: string; clear: true };

export type ToWriter =
  | { type: 'collection'; name: string; indexes: IndexSpec[] }
  | { type: 'write'; writes: WireChange[][] }
  | { type: 'close' };

/** Why one write was refused: a duplicate key, or SQLite's error. */
export type WriteFailure =
  | { duplicate: { collection: string; fields: string[] } }
  | { message: string; code: number | undefined };

export type FromWriter =
  | { type: 'ready' }
  | { type: 'done'; failures: (WriteFailure | null)[] }
  | { type: 'failed'; failure: WriteFailure }
  | { type: 'closed' };

const failureOf = (error: unknown): WriteFailure =>
  error instanceof DuplicateKeyError
    ? { duplicate: { collection: error.collection, fields: [...error.fields] } }
    : { message: (error as Error).message, code: sqliteCode(error) };

const { file } = workerData as WriterData;
const port = parentPort!;
const reply = (message: FromWriter) => port.postMessage(message);
const db = openDatabase(file);
const collections = new Map<string, SqliteCollection>();

const rollback = () => {
  try {
    if (db.isTransaction) db.exec('ROLLBACK');
  } catch {
    // SQLite rolls a failed transaction back itself when the file is next written or opened.
  }
};

const apply = (change: WireChange) => {
  const target = collections.get(change.collection);
  if (!target) throw new Error(`Collection ${change.collection} is not open`);
  if ('json' in change) target.put(JSON.parse(change.json) as Doc, change.json);
  else if ('delete' in change) target.delete(change.delete);
  else target.clear();
};

/** Runs `work` in one transaction; returns its failure, or null. */
const transaction = (work: () => void) => {
  try {
    db.exec('BEGIN IMMEDIATE');
    work();
    db.exec('COMMIT');
    return null;
  } catch (error) {
    rollback();
    return failureOf(error);
  }
};

const write = (writes: WireChange[][]) => {
  const failures: (WriteFailure | null)[] = [];
  const failure = transaction(() => {
    for (const changes of writes) {
      db.exec('SAVEPOINT one_write');
      try {
        changes.forEach(apply);
        db.exec('RELEASE one_write');
        failures.push(null);
      } catch (error) {
        db.exec('ROLLBACK TO one_write');
        db.exec('RELEASE one_write');
        failures.push(failureOf(error));
      }
    }
  });
  reply(failure ? { type: 'failed', failure } : { type: 'done', failures });
};

/** The collection's table first, then its indexes: an index refused leaves the table. */
const openOne = (name: string, indexes: IndexSpec[]) => {
  const failure =
    transaction(() => {
      if (!collections.has(name)) collections.set(name, openCollection(db, name));
    }) ?? transaction(() => indexes.forEach((spec) => collections.get(name)!.addIndex(spec)));
  reply(failure ? { type: 'failed', failure } : { type: 'done', failures: [] });
};

port.on('message', (message: ToWriter) => {
  if (message.type === 'write') return write(message.writes);
  if (message.type === 'collection') return openOne(message.name, message.indexes);
  db.close();
  reply({ type: 'closed' });
  port.close();
});
reply({ type: 'ready' });
