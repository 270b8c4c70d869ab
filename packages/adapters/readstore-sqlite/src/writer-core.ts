import type { DatabaseSync } from 'node:sqlite';
import { DuplicateKeyError, type Doc, type IndexSpec } from '@veil/ports';
import { dropCollection, openCollection, type SqliteCollection } from './collection.ts';
import { sqliteCode } from './sql.ts';

/**
 * What the read-model file's writer does on its connection, whichever thread holds it: the read
 * store's own writer thread (writer.worker.ts), or the embedded event log's when both live in one
 * file (log-companion.ts). Nothing here begins or ends a transaction; the caller does.
 */

/** One change, with a put's document already as JSON. */
export type WireChange =
  | { collection: string; id: string; json: string }
  | { collection: string; delete: string }
  | { collection: string; clear: true };

export type ToWriter =
  | { type: 'collection'; name: string; indexes: IndexSpec[] }
  | { type: 'write'; writes: WireChange[][] }
  | { type: 'drop'; name: string }
  | { type: 'close' };

/** Why one write was refused: a duplicate key, or SQLite's error. */
export type WriteFailure =
  { duplicate: { collection: string; fields: string[] } } | { message: string; code: number | undefined };

export type FromWriter =
  | { type: 'ready' }
  | { type: 'done'; failures: (WriteFailure | null)[] }
  | { type: 'failed'; failure: WriteFailure }
  | { type: 'closed' };

export const failureOf = (error: unknown): WriteFailure =>
  error instanceof DuplicateKeyError
    ? { duplicate: { collection: error.collection, fields: [...error.fields] } }
    : { message: (error as Error).message, code: sqliteCode(error) };

export const writerCore = (db: DatabaseSync) => {
  const collections = new Map<string, SqliteCollection>();

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
      try {
        if (db.isTransaction) db.exec('ROLLBACK');
      } catch {
        // SQLite rolls a failed transaction back itself when the file is next written or opened.
      }
      return failureOf(error);
    }
  };

  /** Each write in a savepoint of its own, so one refused (a duplicate key) takes none of the others with it. */
  const writeEach = (writes: WireChange[][]) => {
    const failures: (WriteFailure | null)[] = [];
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
    return failures;
  };

  return {
    /** Applies changes inside the caller's transaction; any failure is thrown, for the caller to roll back. */
    applyAll: (changes: readonly WireChange[]) => changes.forEach(apply),
    /** Answers one request of the read store, in a transaction of its own. */
    handle(message: Exclude<ToWriter, { type: 'close' }>): FromWriter {
      if (message.type === 'write') {
        let failures: (WriteFailure | null)[] = [];
        const failure = transaction(() => (failures = writeEach(message.writes)));
        return failure ? { type: 'failed', failure } : { type: 'done', failures };
      }
      if (message.type === 'drop') {
        collections.delete(message.name);
        const failure = transaction(() => dropCollection(db, message.name));
        return failure ? { type: 'failed', failure } : { type: 'done', failures: [] };
      }
      const { name, indexes } = message;
      // The collection's table first, then its indexes: an index refused leaves the table.
      const failure =
        transaction(() => {
          if (!collections.has(name)) collections.set(name, openCollection(db, name));
        }) ?? transaction(() => indexes.forEach((spec) => collections.get(name)!.addIndex(spec)));
      return failure ? { type: 'failed', failure } : { type: 'done', failures: [] };
    },
  };
};
