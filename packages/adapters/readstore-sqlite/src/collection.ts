import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { DuplicateKeyError, type Doc, type Filter, type FindOptions, type IndexSpec } from '@veil/ports';
import { entriesIdentity, entriesOf, indexFields, type IndexFields, type Key } from './index-keys.ts';
import { hasNonAscii } from './conditions.ts';
import { buildQuery, type QueryIndex } from './query.ts';
import { quote, SQLITE_CONSTRAINT, sqliteCode } from './sql.ts';

/**
 * One collection: a table of documents (`id`, `doc` as JSON text) named after it, and a table of
 * keys per index, `<name>#<n>`, with one row per key a document has (index-keys.ts), kept in
 * step by every write. Declared indexes are recorded in `_veil_indexes` and, as in MongoDB,
 * kept until the read models are rebuilt. Everything here is synchronous and runs inside a
 * transaction the store opens (sqlite-read-store.ts, writer.worker.ts).
 *
 * The same code serves a connection that only reads (`create: false`), beside the writer
 * thread's: there `expectKeysOf` raises the index flags queries are planned with before a
 * document is handed to the writer, so no query ever meets keys its plan does not expect.
 */
interface KeyTable extends QueryIndex {
  readonly key: IndexFields;
  readonly unique: boolean;
  multikey: boolean;
  nonAscii: boolean;
  readonly selectEntries: StatementSync;
  readonly deleteEntries: StatementSync;
  readonly insertEntry: StatementSync;
}

export interface SqliteCollection {
  readonly name: string;
  addIndex(spec: IndexSpec): void;
  get(id: string): Doc | null;
  /** The stored JSON of a document, or null. */
  getJson(id: string): string | null;
  getMany(ids: readonly string[]): Doc[];
  /** The stored JSON of the documents of these ids that exist, by id. */
  getManyJson(ids: readonly string[]): Map<string, string>;
  /** `json` is the document as JSON, when the caller has it already. */
  put(doc: Doc, json?: string): void;
  delete(id: string): void;
  find(filter?: Filter, options?: FindOptions): Doc[];
  /** What `find` answers, as the documents' stored JSON. */
  findJson(filter?: Filter, options?: FindOptions): string[];
  count(filter?: Filter): number;
  clear(): void;
  /** SQLite's plan for a find (EXPLAIN QUERY PLAN), one line per step. */
  explain(filter?: Filter, options?: FindOptions): string[];
  /** Raises the flags of the indexes (in memory) for a document about to be written elsewhere. */
  expectKeysOf(doc: Doc): void;
  /** What the keys of an index have shown so far, by its key table. */
  flags(keyTable: string): IndexFlags | undefined;
}

const namePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;
const isNonAscii = (key: Key) => typeof key === 'string' && hasNonAscii(key);

/**
 * What the keys of an index have shown so far, recorded so queries can take the faster form:
 * `multikey`, a document with several keys (an array); `nonAscii`, a string key beyond ASCII.
 */
export interface IndexFlags {
  multikey: boolean;
  nonAscii: boolean;
}
const maxCachedQueries = 256;

const specKey = (spec: IndexSpec) =>
  JSON.stringify({ fields: Object.keys(spec.fields), unique: spec.unique ?? false });

/**
 * Opens a collection on `db`, creating its table unless `create` is false (a connection that only
 * reads, opened after the writer created it). `flagsFrom`: the same collection opened before on
 * this connection, whose raised flags carry over.
 */
export const openCollection = (
  db: DatabaseSync,
  name: string,
  options: { create?: boolean; flagsFrom?: SqliteCollection } = {},
): SqliteCollection => {
  // `events` is the embedded event log's table when both share a file.
  if (!namePattern.test(name) || /^(sqlite_|_veil_|events$)/i.test(name)) {
    throw new Error(`Invalid collection name ${JSON.stringify(name)}`);
  }
  const table = quote(name);
  if (options.create ?? true)
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id NOT NULL PRIMARY KEY, doc TEXT NOT NULL)`);
  const statements = {
    get: db.prepare(`SELECT doc FROM ${table} WHERE id = ?`),
    getMany: db.prepare(`SELECT id, doc FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`),
    upsert: db.prepare(
      `INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc ` +
        'RETURNING rowid AS rid',
    ),
    delete: db.prepare(`DELETE FROM ${table} WHERE id = ? RETURNING rowid AS rid`),
    everything: db.prepare(`SELECT rowid AS rid, doc FROM ${table}`),
    markMultikey: db.prepare('UPDATE _veil_indexes SET multikey = 1 WHERE key_table = ?'),
    markNonAscii: db.prepare('UPDATE _veil_indexes SET non_ascii = 1 WHERE key_table = ?'),
  };
  const keyTables: KeyTable[] = [];
  const declared = new Set<string>();
  const queries = new Map<string, StatementSync>();

  const keyTableOf = (spec: IndexSpec, keyTable: string, flags: IndexFlags): KeyTable => {
    const fields = Object.keys(spec.fields);
    const columns = fields.map((_, at) => `k${at + 1}`);
    const quoted = quote(keyTable);
    return {
      fields,
      table: keyTable,
      ...flags,
      key: indexFields(fields),
      unique: spec.unique ?? false,
      selectEntries: db.prepare(`SELECT ${columns.join(', ')} FROM ${quoted} WHERE rid = ?`, {
        returnArrays: true,
      }),
      deleteEntries: db.prepare(`DELETE FROM ${quoted} WHERE rid = ?`),
      insertEntry: db.prepare(
        `INSERT INTO ${quoted} (rid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`,
      ),
    };
  };

  /**
   * Raises an index's flags for the keys of one document; says which it raised. Flags only ever
   * go up (a rolled back write leaves one set, which is merely cautious).
   */
  const raiseFlags = (index: KeyTable, entries: readonly Key[][]) => {
    const raised = { multikey: false, nonAscii: false };
    if (entries.length > 1 && !index.multikey) {
      index.multikey = raised.multikey = true;
      queries.clear(); // plans through this index must now narrow, not walk
    }
    if (!index.nonAscii && entries.some((entry) => entry.some(isNonAscii))) {
      index.nonAscii = raised.nonAscii = true;
      queries.clear(); // $icontains on its keys must now fold case beyond ASCII
    }
    return raised;
  };

  /** Replaces a document's rows in one index, unless its keys are the ones already stored. */
  const writeEntries = (index: KeyTable, rid: number, doc: Doc | null) => {
    const entries: Key[][] = doc ? entriesOf(doc, index.key) : [];
    const stored = index.selectEntries.all(rid) as unknown as Key[][];
    // Most writes leave an index's keys as they were (a chat's last activity changes, its members do not).
    if (stored.length && entriesIdentity(entries) === entriesIdentity(stored)) return;
    const raised = raiseFlags(index, entries);
    if (raised.multikey) statements.markMultikey.run(index.table);
    if (raised.nonAscii) statements.markNonAscii.run(index.table);
    if (stored.length) index.deleteEntries.run(rid);
    try {
      for (const entry of entries) index.insertEntry.run(rid, ...(entry as SQLInputValue[]));
    } catch (error) {
      if (sqliteCode(error) === SQLITE_CONSTRAINT && index.unique) {
        throw new DuplicateKeyError(name, index.fields);
      }
      throw error;
    }
  };

  const register = (spec: IndexSpec, index: KeyTable) => {
    keyTables.push(index);
    declared.add(specKey(spec));
    queries.clear();
  };

  // Indexes declared before (in this run or an earlier one) are all kept in step.
  const recorded = db
    .prepare(
      'SELECT spec, key_table, multikey, non_ascii FROM _veil_indexes WHERE collection = ? ORDER BY key_table',
    )
    .all(name) as { spec: string; key_table: string; multikey: number; non_ascii: number }[];
  for (const row of recorded) {
    const { fields, unique } = JSON.parse(row.spec) as { fields: string[]; unique: boolean };
    const spec = { fields: Object.fromEntries(fields.map((field) => [field, 1 as const])), unique };
    const before = options.flagsFrom?.flags(row.key_table);
    const flags = {
      multikey: !!row.multikey || (before?.multikey ?? false),
      nonAscii: !!row.non_ascii || (before?.nonAscii ?? false),
    };
    register(spec, keyTableOf(spec, row.key_table, flags));
  }

  const getJson = (id: string) => {
    const row = statements.get.get(id);
    return row ? (row.doc as string) : null;
  };
  const parseRows = (rows: Record<string, unknown>[]) =>
    rows.map((row) => JSON.parse(row.doc as string) as Doc);

  const query = (what: 'documents' | 'count', filter?: Filter, options?: FindOptions) => {
    const { sql, params } = buildQuery(name, keyTables, what, filter, options);
    let statement = queries.get(sql);
    if (!statement) {
      if (queries.size >= maxCachedQueries) queries.clear();
      queries.set(sql, (statement = db.prepare(sql)));
    }
    return statement.all(...params);
  };

  return {
    name,
    addIndex(spec) {
      const fields = Object.keys(spec.fields);
      if (!fields.length) throw new Error(`An index of ${name} needs at least one field`);
      const key = specKey(spec);
      if (declared.has(key)) return;
      const keyTable = `${name}#${keyTables.length + 1}`;
      const quoted = quote(keyTable);
      const columns = fields.map((_, at) => `k${at + 1}`);
      db.exec(`CREATE TABLE ${quoted} (rid INTEGER NOT NULL, ${columns.join(', ')})`);
      db.exec(`CREATE INDEX ${quote(`${keyTable}.by_key`)} ON ${quoted} (${columns.join(', ')}, rid)`);
      db.exec(`CREATE INDEX ${quote(`${keyTable}.by_doc`)} ON ${quoted} (rid)`);
      if (spec.unique) {
        // NULL (a missing field) counts as a value, as in MongoDB, where SQLite would let NULLs repeat.
        const keys = columns.map((column) => `ifnull(${column}, x'')`);
        db.exec(`CREATE UNIQUE INDEX ${quote(`${keyTable}.unique`)} ON ${quoted} (${keys.join(', ')})`);
      }
      db.prepare('INSERT INTO _veil_indexes (collection, spec, key_table) VALUES (?, ?, ?)').run(
        name,
        key,
        keyTable,
      );
      // Filled before it is used: a unique index refused here leaves nothing behind (the
      // transaction drops the table).
      const index = keyTableOf(spec, keyTable, { multikey: false, nonAscii: false });
      for (const row of statements.everything.iterate()) {
        writeEntries(index, Number(row.rid), JSON.parse(row.doc as string) as Doc);
      }
      register(spec, index);
    },
    get(id) {
      const json = getJson(id);
      return json === null ? null : (JSON.parse(json) as Doc);
    },
    getJson,
    getMany(ids) {
      return parseRows(statements.getMany.all(JSON.stringify(ids)));
    },
    getManyJson(ids) {
      const rows = statements.getMany.all(JSON.stringify(ids)) as { id: string; doc: string }[];
      return new Map(rows.map((row) => [row.id, row.doc]));
    },
    put(doc, json = JSON.stringify(doc)) {
      if (typeof doc?._id !== 'string') throw new Error(`A document of ${name} needs a string _id`);
      const { rid } = statements.upsert.get(doc._id, json)!;
      for (const index of keyTables) writeEntries(index, Number(rid), doc);
    },
    delete(id) {
      const row = statements.delete.get(id);
      if (row) for (const index of keyTables) writeEntries(index, Number(row.rid), null);
    },
    find(filter, options) {
      return parseRows(query('documents', filter, options));
    },
    findJson(filter, options) {
      return query('documents', filter, options).map((row) => row.doc as string);
    },
    count(filter) {
      return Number(query('count', filter)[0]!.n);
    },
    explain(filter, options) {
      const { sql, params } = buildQuery(name, keyTables, 'documents', filter, options);
      return db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => String(row.detail));
    },
    expectKeysOf(doc) {
      // A multikey index's flags plan nothing more: beyond its fixed fields a query through it
      // tests whole documents. Only the other indexes can learn anything from a document (a chat
      // is written at every send, and its members' index is multikey long since).
      for (const index of keyTables) if (!index.multikey) raiseFlags(index, entriesOf(doc, index.key));
    },
    flags(keyTable) {
      const index = keyTables.find((candidate) => candidate.table === keyTable);
      return index && { multikey: index.multikey, nonAscii: index.nonAscii };
    },
    clear() {
      db.exec(`DELETE FROM ${table}`);
      // Indexes stay multikey, as in MongoDB: that is only ever the safe assumption.
      for (const index of keyTables) db.exec(`DELETE FROM ${quote(index.table)}`);
    },
  };
};

/**
 * Removes a collection's table, its key tables and their entries in `_veil_indexes`, if it
 * exists; inside the caller's transaction. With `secure_delete`, its pages are zeroed.
 */
export const dropCollection = (db: DatabaseSync, name: string) => {
  if (!namePattern.test(name) || /^(sqlite_|_veil_|events$)/i.test(name)) {
    throw new Error(`Invalid collection name ${JSON.stringify(name)}`);
  }
  const keyTables = db.prepare('SELECT key_table FROM _veil_indexes WHERE collection = ?').all(name) as {
    key_table: string;
  }[];
  for (const { key_table: keyTable } of keyTables) db.exec(`DROP TABLE IF EXISTS ${quote(keyTable)}`);
  db.prepare('DELETE FROM _veil_indexes WHERE collection = ?').run(name);
  db.exec(`DROP TABLE IF EXISTS ${quote(name)}`);
};
