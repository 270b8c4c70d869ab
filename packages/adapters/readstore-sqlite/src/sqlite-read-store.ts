import type { DatabaseSync } from 'node:sqlite';
import type { Change, Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from '@veil/ports';
import { dropCollection, openCollection, type SqliteCollection } from './collection.ts';
import { explainFileErrors, holdFileLock, openDatabase } from './database.ts';
import { DocumentCache } from './document-cache.ts';
import { QueryCache, queryKeyOf } from './query-cache.ts';
import type { FromWriter, ToWriter } from './writer-core.ts';
import {
  failureError,
  startReadModelWriter,
  startWriterThread,
  type WireChange,
  type WriterTransport,
} from './writer.ts';

/** JSON of documents read by id kept in memory (characters, about as many bytes): 16 MB. */
const cachedChars = 16 * 1024 * 1024;
/** JSON of recent queries' answers kept in memory: 4 MB. */
const cachedQueryChars = 4 * 1024 * 1024;

/**
 * Read models in one SQLite file (`node:sqlite`, nothing to build or download): documents as
 * JSON, a table of keys per declared index (collection.ts), filters and sorts compiled to SQL
 * (query.ts). Reads run on the calling thread, synchronously underneath; writes go to a writer
 * thread (writer.worker.ts) and resolve once committed, each one transaction. A database in
 * memory (`:memory:`, for tests) has one connection, so it reads and writes on the calling thread.
 * The file opens at the first use, so a process without read models (a gateway) never creates one.
 */
/**
 * The embedded event log's writer thread, when the read models live in the log's file: it runs
 * the read store's requests (loaded into it as `logCompanionModule`), each in a transaction of
 * its own.
 */
export interface SharedLogWriter {
  request(message: unknown): Promise<unknown>;
}

/** Where the log's writer thread loads the read store's part from (log-companion.ts). */
export const logCompanionModule = new URL('./log-companion.ts', import.meta.url).href;

/**
 * Read-model changes stored by the log's writer inside the commit that appends their events
 * (inline projections): `encode` readies them for the thread before the commit; `committed`
 * is called once that commit is durable, before anyone hears of it, so a read after sees them.
 */
export interface CommitEncoder {
  encode(changes: readonly Change[]): unknown;
  committed(payload: unknown): void;
}

export type SqliteReadStore = ReadStore & {
  /** Present when the read models share the event log's file (`sharedLog`). */
  readonly commitEncoder?: CommitEncoder;
};

export const createSqliteReadStore = (options: {
  file: string;
  sharedLog?: SharedLogWriter;
}): SqliteReadStore => {
  const { file, sharedLog } = options;
  let backend: Promise<Backend> | undefined;
  let open: Backend | undefined;
  let closed = false;
  const collections = new Map<string, { inner: SqliteCollection; outer: Collection<Doc> }>();

  const start = () => {
    if (closed) throw new Error(`The read store ${file} is closed`);
    return (backend ??= (file === ':memory:' ? inThread(file) : withWriter(file, sharedLog)).then(
      (started) => (open = started),
    ));
  };
  const ready = () => {
    if (!open) throw new Error(`The read store ${file} is ${closed ? 'closed' : 'not open'}`);
    return open;
  };
  /** Runs `work`, naming the file in errors that mean it is damaged. */
  const explained = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw explainFileErrors(file, error);
    }
  };
  const read = <T>(work: () => T): T => explained(() => ready().read(work));
  const targetOf = (name: string) => {
    const target = collections.get(name)?.inner;
    if (!target) throw new Error(`Collection ${name} is not open`);
    return target;
  };

  const facade = (name: string): Collection<Doc> => {
    const inner = () => targetOf(name);
    return {
      name,
      get: async (id) => explained(() => ready().get(inner(), id)),
      getMany: async (ids) => explained(() => ready().getMany(inner(), ids)),
      put: async (doc) => ready().write([{ target: inner(), put: doc }]),
      delete: async (id) => ready().write([{ target: inner(), delete: id }]),
      find: async (filter, findOptions) => explained(() => ready().find(inner(), filter, findOptions)),
      count: async (filter) => read(() => inner().count(filter)),
      clear: async () => ready().write([{ target: inner(), clear: true }]),
    };
  };

  const encoder: CommitEncoder = {
    encode: (changes) =>
      ready().encode(changes.map((change) => ({ ...change, target: targetOf(change.collection) }))),
    // A commit of the log's that settles after the store closed has nothing left to refresh.
    committed: (payload) => open?.committed(payload as WireChange[]),
  };
  return {
    transactional: true,
    ...(sharedLog && { commitEncoder: encoder }),
    async collection<T extends Doc>(name: string, indexes: IndexSpec[] = []) {
      const store = await start();
      const known = collections.get(name);
      const inner = await store.open(name, indexes, known?.inner);
      const outer = known?.outer ?? facade(name);
      collections.set(name, { inner, outer });
      return outer as unknown as Collection<T>;
    },
    async write(changes) {
      const targets = changes.map((change) => ({ ...change, target: targetOf(change.collection) }));
      await ready().write(targets);
    },
    async drop(name) {
      const store = await start();
      collections.delete(name);
      await store.drop(name);
    },
    async close() {
      closed = true;
      open = undefined;
      collections.clear();
      const store = await backend?.catch(() => undefined);
      await store?.close();
    },
  };
};

/** One change of a write, with the collection it goes to. */
type TargetedChange = { target: SqliteCollection } & (
  | Pick<Extract<Change, { put: Doc }>, 'put'>
  | Pick<Extract<Change, { delete: string }>, 'delete'>
  | { clear: true }
);

/** Where reads and writes go: one connection, or a reading one beside a writer thread. */
interface Backend {
  read<T>(work: () => T): T;
  /** A document by id, read through `read`. */
  get(target: SqliteCollection, id: string): Doc | null;
  /** The documents of these ids that exist, each once, read through `read`. */
  getMany(target: SqliteCollection, ids: readonly string[]): Doc[];
  /** The documents a query matches, read through `read`. */
  find(target: SqliteCollection, filter?: Filter, options?: FindOptions): Doc[];
  /** Creates the collection and its indexes; answers with the collection to read it through. */
  open(name: string, indexes: IndexSpec[], before?: SqliteCollection): Promise<SqliteCollection>;
  /** Stores the changes, all or none. */
  write(changes: readonly TargetedChange[]): Promise<void>;
  /** Removes a collection and its indexes, if it exists. */
  drop(name: string): Promise<void>;
  /** Readies changes for a commit of the event log's writer (shared file only). */
  encode(changes: readonly TargetedChange[]): WireChange[];
  /** Told that a commit of the log's writer stored these changes. */
  committed(changes: readonly WireChange[]): void;
  close(): Promise<void>;
}

const inThread = async (file: string): Promise<Backend> => {
  const db = openDatabase(file);
  const transaction = <T>(work: () => T): T => {
    try {
      db.exec('BEGIN');
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw explainFileErrors(file, error);
    }
  };
  return {
    read: (work) => work(),
    get: (target, id) => target.get(id),
    getMany: (target, ids) => target.getMany(ids),
    find: (target, filter, options) => target.find(filter, options),
    async open(name, indexes, before) {
      const collection = before ?? transaction(() => openCollection(db, name));
      transaction(() => indexes.forEach((spec) => collection.addIndex(spec)));
      return collection;
    },
    async write(changes) {
      transaction(() =>
        changes.forEach((change) => {
          if ('put' in change) change.target.put(change.put);
          else if ('delete' in change) change.target.delete(change.delete);
          else change.target.clear();
        }),
      );
    },
    async drop(name) {
      transaction(() => dropCollection(db, name));
    },
    encode() {
      throw new Error('A read store in memory stores nothing in the event log');
    },
    committed() {},
    async close() {
      db.close();
    },
  };
};

/** The log's writer thread as the read store's writer: requests ride on its queue. */
const sharedTransport = (shared: SharedLogWriter): WriterTransport => ({
  request: async (message: Exclude<ToWriter, { type: 'close' }>) =>
    (await shared.request(message)) as FromWriter,
  // The thread is the log's: the log closes it.
  close: async () => {},
});

/**
 * A reading connection on this thread beside a writer thread: the read store's own, or the event
 * log's when the read models share its file (then the log's owner holds the file's lock).
 */
const withWriter = async (file: string, shared: SharedLogWriter | undefined): Promise<Backend> => {
  const lock = shared ? { release() {} } : holdFileLock(file);
  let db: DatabaseSync | undefined;
  try {
    // Checks the file (damaged, newer, foreign) and creates its schema before the writer starts.
    db = openDatabase(file, { shared: Boolean(shared) });
    db.exec('PRAGMA query_only = ON');
    const reader = db;
    const cache = new DocumentCache(cachedChars);
    const queries = new QueryCache(cachedQueryChars);
    /**
     * Reads in one turn of the event loop share a read transaction: beginning one takes SQLite's
     * locks (system calls), a quarter of a small read's cost alone. It ends before the turn does,
     * and before any write of this store resolves, so a read after a write sees it.
     */
    let snapshot = false;
    const endSnapshot = () => {
      if (!snapshot) return;
      snapshot = false;
      reader.exec('COMMIT');
    };
    const stored = (changes: readonly WireChange[]) => {
      endSnapshot();
      for (const change of changes) {
        queries.changed(change.collection);
        if ('json' in change) cache.stored(change.collection, change.id, change.json);
        else if ('delete' in change) cache.deleted(change.collection, change.delete);
        else cache.cleared(change.collection);
      }
    };
    const writer = await startReadModelWriter(
      shared ? sharedTransport(shared) : await startWriterThread({ file }),
      {
        errorOf: (failure) => failureError(failure, (error) => explainFileErrors(file, error)),
        onCommitted: (writes) => stored(writes.flat()),
      },
    );
    const encode = (changes: readonly TargetedChange[]) =>
      changes.map((change): WireChange => {
        const collection = change.target.name;
        if ('put' in change) {
          // Queries planned from now on expect this document's keys, before it is stored.
          change.target.expectKeysOf(change.put);
          return { collection, id: change.put._id, json: JSON.stringify(change.put) };
        }
        return 'delete' in change ? { collection, delete: change.delete } : { collection, clear: true };
      });
    const read = <T>(work: () => T): T => {
      if (!snapshot) {
        reader.exec('BEGIN');
        snapshot = true;
        setImmediate(endSnapshot);
      }
      return work();
    };
    return {
      read,
      get(target, id) {
        let json = cache.get(target.name, id);
        if (json === undefined) {
          json = read(() => target.getJson(id)) ?? DocumentCache.missing;
          cache.remember(target.name, id, json);
        }
        return json === DocumentCache.missing ? null : (JSON.parse(json) as Doc);
      },
      getMany(target, ids) {
        const unique = [...new Set(ids)];
        const jsons = unique.map((id) => cache.get(target.name, id));
        const unknown = unique.filter((_, i) => jsons[i] === undefined);
        if (unknown.length) {
          const found = read(() => target.getManyJson(unknown));
          unique.forEach((id, i) => {
            if (jsons[i] !== undefined) return;
            jsons[i] = found.get(id) ?? DocumentCache.missing;
            cache.remember(target.name, id, jsons[i]);
          });
        }
        return jsons.flatMap((json) => (json === DocumentCache.missing ? [] : [JSON.parse(json!) as Doc]));
      },
      find(target, filter, options) {
        const key = queryKeyOf(filter, options);
        let jsons = key === undefined ? undefined : queries.get(target.name, key);
        if (!jsons) {
          jsons = read(() => target.findJson(filter, options));
          if (key !== undefined) queries.remember(target.name, key, jsons);
        }
        return jsons.map((json) => JSON.parse(json) as Doc);
      },
      async open(name, indexes, before) {
        await writer.collection(name, indexes);
        endSnapshot();
        return openCollection(reader, name, { create: false, ...(before && { flagsFrom: before }) });
      },
      write: (changes) => writer.write(encode(changes)),
      async drop(name) {
        await writer.drop(name);
        endSnapshot();
        cache.cleared(name);
        queries.changed(name);
      },
      encode,
      committed: stored,
      async close() {
        await writer.close();
        endSnapshot();
        reader.close();
        lock.release();
      },
    };
  } catch (error) {
    db?.close();
    lock.release();
    throw error;
  }
};
