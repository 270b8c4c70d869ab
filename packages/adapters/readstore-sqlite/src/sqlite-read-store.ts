import type { DatabaseSync } from 'node:sqlite';
import type { Collection, Doc, ReadStore } from '@veil/ports';
import { openCollection, type SqliteCollection } from './collection.ts';
import { explainFileErrors, openDatabase } from './database.ts';

/**
 * Read models in one SQLite file (`node:sqlite`, nothing to build or download): documents as
 * JSON, a table of keys per declared index (collection.ts), filters and sorts compiled to SQL
 * (query.ts). Calls are synchronous underneath, so a `write` is one transaction that nothing
 * else interleaves with. The file opens at the first use, so a process without read models
 * (a gateway) never creates one.
 */
export const createSqliteReadStore = (options: { file: string }): ReadStore => {
  const { file } = options;
  let db: DatabaseSync | undefined;
  let closed = false;
  const collections = new Map<string, { inner: SqliteCollection; outer: Collection<Doc> }>();

  const database = () => {
    if (closed) throw new Error(`The read store ${file} is closed`);
    return (db ??= openDatabase(file));
  };
  /** Runs synchronous work, naming the file in errors that mean it is damaged. */
  const run = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw explainFileErrors(file, error);
    }
  };
  const transaction = <T>(work: () => T): T =>
    run(() => {
      const open = database();
      open.exec('BEGIN');
      try {
        const result = work();
        open.exec('COMMIT');
        return result;
      } catch (error) {
        if (open.isTransaction) open.exec('ROLLBACK');
        throw error;
      }
    });

  const facade = (inner: SqliteCollection): Collection<Doc> => ({
    name: inner.name,
    get: async (id) => run(() => inner.get(id)),
    getMany: async (ids) => run(() => inner.getMany(ids)),
    put: async (doc) => transaction(() => inner.put(doc)),
    delete: async (id) => transaction(() => inner.delete(id)),
    find: async (filter, findOptions) => run(() => inner.find(filter, findOptions)),
    count: async (filter) => run(() => inner.count(filter)),
    clear: async () => transaction(() => inner.clear()),
  });

  return {
    transactional: true,
    async collection<T extends Doc>(name: string, indexes = []) {
      let opened = collections.get(name);
      if (!opened) {
        const inner = transaction(() => openCollection(database(), name));
        collections.set(name, (opened = { inner, outer: facade(inner) }));
      }
      const { inner } = opened;
      transaction(() => indexes.forEach((spec) => inner.addIndex(spec)));
      return opened.outer as unknown as Collection<T>;
    },
    async write(changes) {
      const targets = changes.map((change) => {
        const target = collections.get(change.collection)?.inner;
        if (!target) throw new Error(`Collection ${change.collection} is not open`);
        return target;
      });
      transaction(() =>
        changes.forEach((change, at) => {
          if ('put' in change) targets[at]!.put(change.put);
          else targets[at]!.delete(change.delete);
        }),
      );
    },
    async close() {
      closed = true;
      db?.close();
      db = undefined;
      collections.clear();
    },
  };
};
