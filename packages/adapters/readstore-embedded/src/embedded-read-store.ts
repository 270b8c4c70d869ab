import { deepFreeze } from '@veil/contracts';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from '@veil/ports';
import { compileFilter, valueAt } from './filter.ts';
import { createOrderedIndex, type OrderedIndex } from './ordered-index.ts';
import { compare, firstInOrder } from './order.ts';

/**
 * Read models in memory. In embedded mode they are rebuilt from the on-disk event log at every
 * start, so nothing here touches the disk. A stored document is frozen (deeply) and handed out
 * as it is: reads copy nothing, and a caller that tries to change a result gets a TypeError
 * instead of changing stored state. (Copying on every read and write was a tenth of the CPU
 * of a message send; see BENCHMARKS.md.)
 * Equality filters on indexed fields are answered from hash indexes, pages of a compound
 * index (`{chat: 1, seq: 1}`) from an ordered index (`ordered-index.ts`); the rest scans
 * with a filter compiled once per query (`filter.ts`) and picks its first page without sorting
 * every match (`order.ts`).
 */
type EmbeddedCollection<T extends Doc> = Collection<T> & {
  addIndex(field: string): void;
  addOrderedIndex(groupField: string, orderField: string): void;
};

const createCollection = <T extends Doc>(): EmbeddedCollection<T> => {
  const docs = new Map<string, T>();
  /** field -> value -> ids, for equality and array-contains lookups. */
  const indexes = new Map<string, Map<unknown, Set<string>>>();
  const orderedIndexes: OrderedIndex[] = [];

  const asIndexed = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
  /** Moves `id` from the index entries of `before` to those of `after` (either may be absent). */
  const moveInIndex = (index: Map<unknown, Set<string>>, id: string, before: unknown[], after: unknown[]) => {
    for (const value of before) index.get(value)?.delete(id);
    for (const value of after) {
      let ids = index.get(value);
      if (!ids) index.set(value, (ids = new Set()));
      ids.add(id);
    }
  };
  /**
   * Keeps the indexes in step with a write. A field whose value is the one already stored (the
   * same array when a handler spreads the old document) is left alone: most writes touch only
   * unindexed fields, such as a chat's last activity on every message.
   */
  const reindex = (id: string, previous: T | undefined, next: T | undefined) => {
    for (const [field, index] of indexes) {
      const before = previous && valueAt(previous, field);
      const after = next && valueAt(next, field);
      if (previous && next && before === after) continue;
      moveInIndex(index, id, previous ? asIndexed(before) : [], next ? asIndexed(after) : []);
    }
    for (const ordered of orderedIndexes) {
      const keysOf = (doc: T | undefined): [unknown, unknown] | undefined =>
        doc && [valueAt(doc, ordered.groupField), valueAt(doc, ordered.orderField)];
      ordered.move(id, keysOf(previous), keysOf(next));
    }
  };

  /**
   * The ids in the order an ordered index can give them, if one fits: the filter fixes
   * its group field to one value and the sort, if any, is by its order field alone.
   */
  const fromOrderedIndex = (filter: Filter, options: FindOptions): Iterable<string> | undefined => {
    const sort = Object.entries(options.sort ?? {});
    for (const ordered of orderedIndexes) {
      const group = filter[ordered.groupField];
      if (group === undefined || (group !== null && typeof group === 'object')) continue;
      if (sort.length > 1 || (sort.length === 1 && sort[0]![0] !== ordered.orderField)) continue;
      return ordered.scan(group, filter[ordered.orderField], sort[0]?.[1] ?? 1);
    }
    return undefined;
  };

  /** The smallest candidate set an indexed equality condition allows, or every document. */
  const candidates = (filter: Filter): Iterable<T> => {
    for (const [field, condition] of Object.entries(filter)) {
      const index = indexes.get(field);
      if (!index || (condition !== null && typeof condition === 'object')) continue;
      const ids = index.get(condition) ?? new Set<string>();
      return [...ids].map((id) => docs.get(id)!).filter(Boolean);
    }
    return docs.values();
  };

  const select = (filter: Filter = {}, options: FindOptions = {}): T[] => {
    const found: T[] = [];
    const matches = compileFilter(filter);
    const idsInOrder = fromOrderedIndex(filter, options);
    if (idsInOrder) {
      // Already sorted: stop as soon as the page is full.
      for (const id of idsInOrder) {
        if (found.length === options.limit) break;
        const doc = docs.get(id)!;
        if (matches(doc)) found.push(doc);
      }
      return found;
    }
    for (const doc of candidates(filter)) if (matches(doc)) found.push(doc);
    const sort = Object.entries(options.sort ?? {});
    if (!sort.length) return options.limit !== undefined ? found.slice(0, options.limit) : found;
    // Each document's sort keys are read once, not at every comparison (n log n path lookups
    // made listing 100,000 users take 270 ms).
    const keyed = found.map((doc) => ({ doc, keys: sort.map(([field]) => valueAt(doc, field)) }));
    const order = (a: (typeof keyed)[number], b: (typeof keyed)[number]) => {
      for (let i = 0; i < sort.length; i++) {
        const byField = compare(a.keys[i], b.keys[i]);
        if (byField) return byField * sort[i]![1];
      }
      return 0;
    };
    const limit = options.limit ?? keyed.length;
    return (limit < keyed.length ? firstInOrder(keyed, limit, order) : keyed.sort(order)).map(
      ({ doc }) => doc,
    );
  };

  return {
    addIndex(field) {
      if (indexes.has(field)) return;
      const index = new Map<unknown, Set<string>>();
      indexes.set(field, index);
      for (const doc of docs.values()) moveInIndex(index, doc._id, [], asIndexed(valueAt(doc, field)));
    },
    addOrderedIndex(groupField, orderField) {
      if (orderedIndexes.some((o) => o.groupField === groupField && o.orderField === orderField)) return;
      const ordered = createOrderedIndex(groupField, orderField);
      orderedIndexes.push(ordered);
      for (const doc of docs.values()) {
        ordered.move(doc._id, undefined, [valueAt(doc, groupField), valueAt(doc, orderField)]);
      }
    },
    async get(id) {
      return docs.get(id) ?? null;
    },
    async getMany(ids) {
      return ids.flatMap((id) => docs.get(id) ?? []);
    },
    async put(doc) {
      reindex(doc._id, docs.get(doc._id), doc);
      docs.set(doc._id, deepFreeze(doc));
    },
    async delete(id) {
      const previous = docs.get(id);
      if (!previous) return;
      reindex(id, previous, undefined);
      docs.delete(id);
    },
    async find(filter, options) {
      return select(filter, options);
    },
    async count(filter) {
      return select(filter).length;
    },
    async clear() {
      docs.clear();
      for (const index of indexes.values()) index.clear();
      for (const ordered of orderedIndexes) ordered.clear();
    },
  };
};

export const createEmbeddedReadStore = (): ReadStore => {
  const collections = new Map<string, ReturnType<typeof createCollection>>();
  return {
    async collection<T extends Doc>(name: string, indexSpecs: IndexSpec[] = []) {
      let collection = collections.get(name);
      if (!collection) collections.set(name, (collection = createCollection()));
      // A hash index serves the first field of each declared index (equality lookups); a
      // compound one also gets an ordered index on its first two fields (pages, in order).
      for (const spec of indexSpecs) {
        const [first, second] = Object.keys(spec.fields);
        if (first) collection.addIndex(first);
        if (first && second) collection.addOrderedIndex(first, second);
      }
      return collection as unknown as Collection<T>;
    },
    async close() {
      collections.clear();
    },
  };
};
