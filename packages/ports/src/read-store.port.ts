/**
 * Read models (projections). A small document API that MongoDB serves natively and SQLite
 * serves through JSON documents and index tables. Documents are plain JSON with a string `_id`.
 *
 * Filters are a deliberately small subset of MongoDB's query language, with MongoDB's meaning:
 *  - `{ field: value }`            equality; when the stored field is an array, "contains value".
 *                                  `null` matches a missing field too. Types never mix:
 *                                  `false` is not `0`, `1` is not `'1'`.
 *  - `{ field: { $in: [...] } }`   one of
 *  - `{ field: { $gt|$gte|$lt|$lte: v } }`  a number bound matches numbers, a string bound
 *                                  strings (compared by UTF-8 bytes); on an array each bound
 *                                  may be met by a different element
 *  - `{ field: { $icontains: 'text' } }`  case-insensitive substring, matched literally (strings,
 *                                  or an array's string elements)
 * Dotted paths (`'seenBy.u1'`) reach into nested objects (not through arrays). Sorting is by
 * fields holding numbers or strings; a missing value sorts first ascending, last descending.
 * The order of documents that tie on every sort key is not defined.
 */
export interface Doc {
  _id: string;
}

export type Comparable = string | number;
export type FieldCondition =
  | Comparable
  | boolean
  | null
  | { $in: (Comparable | boolean | null)[] }
  | { $gt?: Comparable; $gte?: Comparable; $lt?: Comparable; $lte?: Comparable }
  | { $icontains: string };

export type Filter = Record<string, FieldCondition>;

export interface FindOptions {
  sort?: Record<string, 1 | -1>;
  /** At most this many documents: a positive integer. */
  limit?: number;
}

/**
 * An index on one or more fields (a compound index serves an equality on its first fields and
 * a range or an order on the next). An array field is indexed by each of its elements.
 *
 * `unique` works as in MongoDB: no two documents may share a key (a document repeating a value
 * in an array conflicts with nobody), and a missing field counts as `null`, so only one document
 * may lack the field or hold `null` in it. There are no sparse or partial indexes.
 */
export interface IndexSpec {
  fields: Record<string, 1 | -1>;
  unique?: boolean;
}

/** A write refused because it would give two documents the same key in a unique index. */
export class DuplicateKeyError extends Error {
  readonly collection: string;
  readonly fields: readonly string[];
  constructor(collection: string, fields: readonly string[]) {
    super(`Duplicate key in ${collection} on (${fields.join(', ')})`);
    this.collection = collection;
    this.fields = fields;
    this.name = 'DuplicateKeyError';
  }
}

export interface Collection<T extends Doc> {
  readonly name: string;
  get(id: string): Promise<T | null>;
  getMany(ids: readonly string[]): Promise<T[]>;
  /**
   * Inserts or fully replaces the document with this `_id`. Results are copies; still, do not
   * change a document after putting it: build a new one (`{ ...doc, field }`) and put that.
   */
  put(doc: T): Promise<void>;
  delete(id: string): Promise<void>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  /** Removes every document: used to rebuild a projection from the log. */
  clear(): Promise<void>;
}

/** One change of a `write`: a whole document put, or a document deleted, in a named collection. */
export type Change = { collection: string; put: Doc } | { collection: string; delete: string };

export interface ReadStore {
  /** Opens (and creates the indexes of) a collection. Idempotent; indexes are only ever added. */
  collection<T extends Doc>(name: string, indexes?: IndexSpec[]): Promise<Collection<T>>;
  /**
   * Applies changes to collections opened before, in the order given. With `transactional`
   * they are all stored or none is (a failure stores nothing). Without it, a failure leaves
   * the changes before the failing one stored and none after it, so a change listed last (a
   * projection's checkpoint) is never stored ahead of the changes above it.
   */
  write(changes: readonly Change[]): Promise<void>;
  /** Whether `write` is all or nothing. */
  readonly transactional: boolean;
  /**
   * Removes a collection, its documents and its indexes, if it exists: a read model no longer
   * kept. Dropping one that does not exist does nothing.
   */
  drop(name: string): Promise<void>;
  close(): Promise<void>;
}
