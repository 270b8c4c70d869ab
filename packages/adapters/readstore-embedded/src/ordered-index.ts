import type { FieldCondition } from '@veil/ports';
import { compare, partitionPoint } from './order.ts';

interface Entry {
  id: string;
  key: unknown;
}

/**
 * A compound index `{group: 1, order: 1}` in memory: for each value of the group field, the ids
 * of its documents kept sorted by the order field (ties in the order they were written). A page
 * of a chat's history (`{chat, seq: {$lt}}`, sorted by `seq`, limit 51) is then two binary
 * searches and a walk of at most the page, instead of a scan and a sort of every message in the
 * chat, which took 43 ms for a chat of 90,000 messages, on the one event loop every socket
 * shares (BENCHMARKS.md, sixth session).
 */
export interface OrderedIndex {
  readonly groupField: string;
  readonly orderField: string;
  /** Moves `id` from where `before` ([group, order] values, if stored) put it to where `after` does. */
  move(id: string, before: [unknown, unknown] | undefined, after: [unknown, unknown] | undefined): void;
  /**
   * The ids in the group whose order value may satisfy `condition` (a value or a range; any
   * other condition narrows nothing), ascending or descending. The caller still applies the
   * whole filter to each document: this only skips the ones that cannot match.
   */
  scan(group: unknown, condition: FieldCondition | undefined, direction: 1 | -1): Iterable<string>;
  clear(): void;
}

/** The first position whose key is above `key` (`strict`) or at least `key`. */
const boundary = (entries: Entry[], key: unknown, strict: boolean): number =>
  partitionPoint(entries.length, (i) => {
    const order = compare(entries[i]!.key, key);
    return order < 0 || (strict && order === 0);
  });

/** [from, to) of the entries a condition on the order field can match. */
const rangeOf = (entries: Entry[], condition: FieldCondition | undefined): [number, number] => {
  if (condition === undefined) return [0, entries.length];
  if (condition === null || typeof condition !== 'object') {
    return [boundary(entries, condition, false), boundary(entries, condition, true)];
  }
  const range = condition as { $gt?: unknown; $gte?: unknown; $lt?: unknown; $lte?: unknown };
  let from = 0;
  let to = entries.length;
  if (range.$gt !== undefined) from = Math.max(from, boundary(entries, range.$gt, true));
  if (range.$gte !== undefined) from = Math.max(from, boundary(entries, range.$gte, false));
  if (range.$lt !== undefined) to = Math.min(to, boundary(entries, range.$lt, false));
  if (range.$lte !== undefined) to = Math.min(to, boundary(entries, range.$lte, true));
  return [from, Math.max(from, to)];
};

/** Array values of the group field index the document under each element, as hash indexes do. */
const groupsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

export const createOrderedIndex = (groupField: string, orderField: string): OrderedIndex => {
  const groups = new Map<unknown, Entry[]>();

  const remove = (group: unknown, id: string, key: unknown) => {
    const entries = groups.get(group);
    if (!entries) return;
    // The entry sits among those with the same key; a linear search is the fallback for keys
    // that do not order (mixed types).
    let at = boundary(entries, key, false);
    while (at < entries.length && entries[at]!.id !== id) at++;
    if (at === entries.length) at = entries.findIndex((entry) => entry.id === id);
    if (at >= 0) entries.splice(at, 1);
    if (!entries.length) groups.delete(group);
  };

  const insert = (group: unknown, id: string, key: unknown) => {
    let entries = groups.get(group);
    if (!entries) groups.set(group, (entries = []));
    // Projections mostly write in order (a new message has the highest seq): append at once.
    const last = entries.at(-1);
    if (!last || compare(last.key, key) <= 0) entries.push({ id, key });
    else entries.splice(boundary(entries, key, true), 0, { id, key });
  };

  return {
    groupField,
    orderField,
    move(id, before, after) {
      if (before && after && before[0] === after[0] && before[1] === after[1]) return;
      if (before) for (const group of groupsOf(before[0])) remove(group, id, before[1]);
      if (after) for (const group of groupsOf(after[0])) insert(group, id, after[1]);
    },
    *scan(group, condition, direction) {
      const entries = groups.get(group);
      if (!entries) return;
      const [from, to] = rangeOf(entries, condition);
      if (direction === 1) for (let i = from; i < to; i++) yield entries[i]!.id;
      else for (let i = to - 1; i >= from; i--) yield entries[i]!.id;
    },
    clear() {
      groups.clear();
    },
  };
};
