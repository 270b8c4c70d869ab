/**
 * Field paths of filters, sorts and indexes. They come from code, never from users; still, each
 * key is checked and quoted, and a path reaches SQLite only as a bound parameter.
 */
const keyPattern = /^[A-Za-z0-9_-]+$/;

export interface FieldPath {
  /** As written: `seenBy.u1`. */
  readonly path: string;
  readonly keys: readonly string[];
  /** SQLite's JSON path: `$."seenBy"."u1"`. */
  readonly json: string;
}

export const fieldPath = (path: string): FieldPath => {
  const keys = path.split('.');
  if (!keys.every((key) => keyPattern.test(key))) {
    throw new Error(`Unsupported field path ${JSON.stringify(path)}: keys of letters, digits, _ and -`);
  }
  return { path, keys, json: `$${keys.map((key) => `."${key}"`).join('')}` };
};

/** The value at a path, through nested objects only (an array on the way means no value). */
export const valueAt = (doc: unknown, keys: readonly string[]): unknown => {
  let current = doc;
  for (const key of keys) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
};
