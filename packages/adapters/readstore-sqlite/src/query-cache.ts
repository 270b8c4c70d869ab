import type { Filter, FindOptions } from '@veil/ports';

/** Whether JSON writes `value` as itself: no undefined, NaN, Infinity, nor any object but plain ones. */
const jsonExact = (value: unknown): boolean => {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(jsonExact);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).every(jsonExact);
  return false;
};

/**
 * The key a query's answer is kept under: its filter and options as JSON, when JSON tells every
 * such query apart (anything else is asked of SQLite every time, and refused there if invalid).
 */
export const queryKeyOf = (filter: Filter = {}, options: FindOptions = {}): string | undefined =>
  jsonExact(filter) && jsonExact(options) ? JSON.stringify([filter, options]) : undefined;

/**
 * Answers of recent queries, as their documents' JSON, for the store whose writes all pass
 * through this process (as `DocumentCache` keeps documents read by id). A query asked again
 * before its collection changes (the push subscriptions of a chat's members, asked at every send)
 * is then a lookup instead of a trip through SQLite. Any committed change to a collection forgets
 * every answer about it. Bounded by the JSON it holds, oldest asked first; an answer of more
 * than a 64th of that is not kept.
 */
export class QueryCache {
  readonly #maxChars: number;
  #chars = 0;
  /** `collection \0 query` -> the answer; Map order is the eviction order. */
  readonly #answers = new Map<string, { collection: string; jsons: readonly string[]; chars: number }>();
  /** collection -> its keys in `#answers`. */
  readonly #keysOf = new Map<string, Set<string>>();

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  get(collection: string, query: string): readonly string[] | undefined {
    const key = `${collection}\u0000${query}`;
    const answer = this.#answers.get(key);
    if (!answer) return undefined;
    this.#answers.delete(key);
    this.#answers.set(key, answer);
    return answer.jsons;
  }

  remember(collection: string, query: string, jsons: readonly string[]) {
    const key = `${collection}\u0000${query}`;
    const chars = jsons.reduce((sum, json) => sum + json.length, key.length);
    if (chars > this.#maxChars / 64) return;
    this.#remove(key);
    this.#answers.set(key, { collection, jsons, chars });
    this.#chars += chars;
    let keys = this.#keysOf.get(collection);
    if (!keys) this.#keysOf.set(collection, (keys = new Set()));
    keys.add(key);
    for (const oldest of this.#answers.keys()) {
      if (this.#chars <= this.#maxChars) break;
      this.#remove(oldest);
    }
  }

  /** A change to the collection committed: nothing known of its queries holds any longer. */
  changed(collection: string) {
    for (const key of this.#keysOf.get(collection) ?? []) this.#remove(key);
  }

  #remove(key: string) {
    const answer = this.#answers.get(key);
    if (!answer) return;
    this.#answers.delete(key);
    this.#chars -= answer.chars;
    const keys = this.#keysOf.get(answer.collection)!;
    keys.delete(key);
    if (!keys.size) this.#keysOf.delete(answer.collection);
  }
}
