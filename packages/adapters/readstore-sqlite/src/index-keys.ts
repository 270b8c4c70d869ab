import { fieldPath, valueAt, type FieldPath } from './paths.ts';

/**
 * The keys a document has in an index, as MongoDB computes them. Each declared index is a table
 * of (document, key...) rows; a key is a value SQLite orders the way MongoDB does for the types
 * the port sorts by: missing and null are NULL (first), then numbers, then strings. Types a
 * filter can ask for but not sort by get blobs, so they never equal a number or a string:
 * `false` and `true`, an empty array (MongoDB's `undefined` key), and an object or a nested
 * array as its JSON.
 */
export type Key = string | number | null | Uint8Array;

const tagged = (tag: number, json = '') => {
  const text = new TextEncoder().encode(json);
  const bytes = new Uint8Array(text.length + 1);
  bytes[0] = tag;
  bytes.set(text, 1);
  return bytes;
};
const emptyArrayKey = tagged(0);
export const falseKey = tagged(5);
export const trueKey = tagged(6);

export const keyOf = (value: unknown): Key => {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      // JSON stores NaN and the infinities as null.
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value ? trueKey : falseKey;
    default:
      return tagged(Array.isArray(value) ? 4 : 3, JSON.stringify(value));
  }
};

/** A string that two keys share exactly when SQLite holds them equal. */
export const keyIdentity = (key: Key | undefined): string => {
  if (key === null || key === undefined) return 'z';
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'number') return `n${key}`;
  return `b${Buffer.from(key).toString('hex')}`;
};

/** An array is indexed by each distinct element (MongoDB's multikey index); `[]` by one key of its own. */
const fieldKeys = (value: unknown): Key[] => {
  if (!Array.isArray(value)) return [keyOf(value)];
  if (value.length === 0) return [emptyArrayKey];
  const distinct = new Map<string, Key>();
  for (const element of value) {
    const key = keyOf(element);
    distinct.set(keyIdentity(key), key);
  }
  return [...distinct.values()];
};

export interface IndexFields {
  readonly paths: readonly FieldPath[];
}

export const indexFields = (fields: readonly string[]): IndexFields => ({ paths: fields.map(fieldPath) });

/**
 * The key tuples of a document in an index: one per element of its array field, if it has one.
 * Like MongoDB, a compound index refuses a document with arrays in two of its fields.
 */
export const entriesOf = (doc: unknown, index: IndexFields): Key[][] => {
  let arrayField: string | undefined;
  let entries: Key[][] = [[]];
  for (const path of index.paths) {
    const value = valueAt(doc, path.keys);
    if (Array.isArray(value)) {
      if (arrayField !== undefined) {
        throw new Error(`Cannot index parallel arrays ${arrayField} and ${path.path}`);
      }
      arrayField = path.path;
    }
    const keys = fieldKeys(value);
    entries = entries.flatMap((entry) => keys.map((key) => [...entry, key]));
  }
  return entries;
};

export const entriesIdentity = (entries: readonly (readonly (Key | undefined)[])[]): string =>
  JSON.stringify(entries.map((entry) => JSON.stringify(entry.map(keyIdentity))).sort());
