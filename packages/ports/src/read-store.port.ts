/**
 * Read models (projections). A small document API that MongoDB serves natively and the
 * embedded store implements in memory. Documents are plain JSON with a string `_id`.
 *
 * Filters are a deliberately small subset of MongoDB's query language:
 *  - `{ field: value }`            equality; when the stored field is an array, "contains value"
 *  - `{ field: { $in: [...] } }`   one of
 *  - `{ field: { $gt|$gte|$lt|$lte: v } }`
 *  - `{ field: { $icontains: 'text' } }`  case-insensitive substring (strings only)
 * Dotted paths (`'seenBy.u1'`) reach into nested objects.
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
  limit?: number;
}

export interface IndexSpec {
  fields: Record<string, 1 | -1>;
  unique?: boolean;
}

export interface Collection<T extends Doc> {
  get(id: string): Promise<T | null>;
  getMany(ids: readonly string[]): Promise<T[]>;
  /**
   * Inserts or fully replaces the document with this `_id`. The store may keep the object itself
   * (the embedded store freezes it): do not change a document after putting it, nor a result
   * you read; build a new one (`{ ...doc, field }`) and put that.
   */
  put(doc: T): Promise<void>;
  delete(id: string): Promise<void>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  /** Removes every document: used to rebuild a projection from the log. */
  clear(): Promise<void>;
}

export interface ReadStore {
  /** Opens (and on MongoDB creates the indexes of) a collection. Idempotent. */
  collection<T extends Doc>(name: string, indexes?: IndexSpec[]): Promise<Collection<T>>;
  close(): Promise<void>;
}
