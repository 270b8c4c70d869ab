import { describe, expect, it } from 'vitest';
import type { Collection, Doc, Filter, ReadStore } from '../read-store.port.ts';
import { describeReadStoreFilters } from './read-store-filters.contract.ts';
import { withStoreFrom, type ReadStoreUnderTest } from './read-store-under-test.ts';
import { describeReadStoreWrites } from './read-store-writes.contract.ts';

/**
 * The read-store contract, run by SQLite and by MongoDB: the filter subset of the port, sorting
 * and limits, copies in and out, rebuilding a projection from scratch; the filter language's
 * finer points (read-store-filters.contract.ts); unique indexes and `write`
 * (read-store-writes.contract.ts).
 */

interface Item extends Doc {
  name: string;
  n: number;
  tags: string[];
  nested: { flags: Record<string, true> };
}

const items: Item[] = [
  { _id: 'a', name: 'Alice', n: 1, tags: ['x', 'y'], nested: { flags: { u1: true } } },
  { _id: 'b', name: 'bob', n: 2, tags: ['y'], nested: { flags: {} } },
  { _id: 'c', name: 'Carol (admin)', n: 3, tags: [], nested: { flags: { u2: true } } },
  { _id: 'd', name: 'dave.b', n: 4, tags: ['z'], nested: { flags: {} } },
];

export const describeReadStoreContract = (name: string, make: () => Promise<ReadStoreUnderTest>) => {
  describe(`ReadStore contract: ${name}`, () => {
    const withStore = withStoreFrom(make);
    describeReadStoreFilters(withStore);
    describeReadStoreWrites(withStore);
    const withItems = (body: (c: Collection<Item>, store: ReadStore) => Promise<void>) =>
      withStore(async (store) => {
        const collection = await store.collection<Item>('items', [
          { fields: { n: 1 } },
          { fields: { tags: 1 } },
        ]);
        for (const item of items) await collection.put(structuredClone(item));
        await body(collection, store);
      });
    const ids = (docs: Doc[]) => docs.map((d) => d._id);

    it(
      'puts, gets, replaces and deletes',
      withItems(async (c) => {
        expect(await c.get('a')).toEqual(items[0]);
        expect(await c.get('nope')).toBeNull();
        expect(ids(await c.getMany(['b', 'nope', 'a'])).sort()).toEqual(['a', 'b']);
        await c.put({ ...items[1]!, n: 20 });
        expect(((await c.get('b')) as Item).n).toBe(20);
        await c.delete('b');
        await c.delete('b');
        expect(await c.get('b')).toBeNull();
      }),
    );

    it(
      'sees a document put after it was read as missing, by one id and by many, and its deletion',
      withItems(async (c) => {
        expect(await c.get('late')).toBeNull();
        expect(await c.getMany(['late', 'a', 'late'])).toEqual([items[0]]);
        const late: Item = { _id: 'late', name: 'Late', n: 7, tags: [], nested: { flags: {} } };
        await c.put(late);
        expect(await c.get('late')).toEqual(late);
        expect(ids(await c.getMany(['a', 'late'])).sort()).toEqual(['a', 'late']);
        await c.delete('late');
        expect(await c.getMany(['late'])).toEqual([]);
        expect(await c.get('late')).toBeNull();
      }),
    );

    it(
      'answers a query asked again with every change made to its collection since, and no other',
      withItems(async (c, store) => {
        const others = await store.collection<Doc & { n: number }>('others', [{ fields: { n: 1 } }]);
        await others.put({ _id: 'o', n: 1 });
        const byTags = () => c.find({ tags: { $in: ['y', 'q'] } }, { sort: { n: 1 } });
        expect(ids(await byTags())).toEqual(['a', 'b']);
        expect(ids(await others.find({ n: 1 }))).toEqual(['o']);
        await c.put({ _id: 'e', name: 'Eve', n: 0, tags: ['q'], nested: { flags: {} } });
        expect(ids(await byTags())).toEqual(['e', 'a', 'b']);
        await c.delete('a');
        expect(ids(await byTags())).toEqual(['e', 'b']);
        await c.put({ ...items[1]!, tags: [] });
        expect(ids(await byTags())).toEqual(['e']);
        // An answer's documents are the caller's own: changing them changes no later answer.
        const [answered] = await byTags();
        answered!.name = 'changed by the caller';
        expect(((await byTags())[0] as Item).name).toBe('Eve');
        expect(ids(await others.find({ n: 1 }))).toEqual(['o']);
        await c.clear();
        expect(await byTags()).toEqual([]);
      }),
    );

    it(
      'filters by equality, array membership, $in, ranges and dotted paths',
      withItems(async (c) => {
        expect(ids(await c.find({ n: 2 }))).toEqual(['b']);
        expect(ids(await c.find({ tags: 'y' }, { sort: { _id: 1 } }))).toEqual(['a', 'b']);
        expect(ids(await c.find({ n: { $in: [1, 4] } }, { sort: { n: 1 } }))).toEqual(['a', 'd']);
        expect(ids(await c.find({ n: { $gt: 1, $lte: 3 } }, { sort: { n: 1 } }))).toEqual(['b', 'c']);
        expect(ids(await c.find({ n: { $gte: 4 } }))).toEqual(['d']);
        expect(ids(await c.find({ n: { $lt: 2 } }))).toEqual(['a']);
        expect(ids(await c.find({ 'nested.flags.u2': true }))).toEqual(['c']);
        expect(ids(await c.find({ tags: 'y', n: 1 }))).toEqual(['a']);
      }),
    );

    it(
      'answers indexed lookups from the latest version of each document',
      withItems(async (c) => {
        const a = (await c.get('a')) as Item;
        await c.put({ ...a, name: 'Alice again' }); // indexed fields kept, the same array
        expect(ids(await c.find({ tags: 'x' }))).toEqual(['a']);
        expect(ids(await c.find({ n: 1 }))).toEqual(['a']);
        await c.put({ ...a, n: 5, tags: ['y', 'w'] }); // both indexed fields changed
        expect(ids(await c.find({ n: 1 }))).toEqual([]);
        expect(ids(await c.find({ n: 5 }))).toEqual(['a']);
        expect(ids(await c.find({ tags: 'x' }))).toEqual([]);
        expect(ids(await c.find({ tags: 'w' }))).toEqual(['a']);
        expect(ids(await c.find({ tags: 'y' }, { sort: { _id: 1 } }))).toEqual(['a', 'b']);
        await c.delete('a');
        expect(ids(await c.find({ tags: 'w' }))).toEqual([]);
        expect(ids(await c.find({ n: 5 }))).toEqual([]);
      }),
    );

    it(
      'pages through a compound index: one group, a range on the second field, either order',
      withItems(async (_c, store) => {
        type Entry = { _id: string; chat: string; seq: number; from: string };
        const entries = await store.collection<Entry>('pages', [{ fields: { chat: 1, seq: 1 } }]);
        // Written out of order, across two groups.
        for (const seq of [5, 1, 9, 3, 7, 2, 8, 4, 6]) {
          await entries.put({ _id: `a${seq}`, chat: 'a', seq, from: seq % 2 ? 'odd' : 'even' });
          await entries.put({ _id: `b${seq}`, chat: 'b', seq, from: 'b' });
        }
        const page = async (filter: Filter, sort?: 1 | -1, limit?: number) =>
          ids(await entries.find(filter, { ...(sort && { sort: { seq: sort } }), ...(limit && { limit }) }));
        expect(await page({ chat: 'a' }, -1, 3)).toEqual(['a9', 'a8', 'a7']);
        expect(await page({ chat: 'a', seq: { $lt: 7 } }, -1, 3)).toEqual(['a6', 'a5', 'a4']);
        expect(await page({ chat: 'a', seq: { $gt: 6 } }, 1, 2)).toEqual(['a7', 'a8']);
        expect(await page({ chat: 'a', seq: { $gte: 3, $lte: 5 } }, 1)).toEqual(['a3', 'a4', 'a5']);
        expect(await page({ chat: 'a', seq: { $gt: 9 } }, 1)).toEqual([]);
        expect(await page({ chat: 'a', seq: 4 })).toEqual(['a4']);
        expect(await page({ chat: 'a', from: 'odd', seq: { $lt: 9 } }, -1, 2)).toEqual(['a7', 'a5']);
        expect(await page({ chat: 'nope' }, -1, 5)).toEqual([]);
        // A document that moves (to another group, another position) or goes is found where it is now.
        await entries.put({ _id: 'a5', chat: 'b', seq: 10, from: 'moved' });
        await entries.delete('a6');
        expect(await page({ chat: 'a', seq: { $lt: 8 } }, -1, 3)).toEqual(['a7', 'a4', 'a3']);
        expect(await page({ chat: 'b', seq: { $gt: 8 } }, 1)).toEqual(['b9', 'a5']);
        expect(await entries.count({ chat: 'a' })).toBe(7);
      }),
    );

    it(
      'matches case-insensitive substrings literally, special characters included, with or without an index',
      withItems(async (c, store) => {
        const indexed = await store.collection<Item>('items_by_name', [{ fields: { name: 1 } }]);
        const odd = { _id: 'e', name: '50% OFF_x\\y', n: 5, tags: [], nested: { flags: {} } };
        for (const item of [...items, odd]) await indexed.put(structuredClone(item));
        await c.put(structuredClone(odd));
        for (const collection of [c, indexed]) {
          const matching = async (needle: string) =>
            ids(await collection.find({ name: { $icontains: needle } }, { sort: { name: 1 } }));
          expect(await matching('AL')).toEqual(['a']);
          expect(await matching('(admin)')).toEqual(['c']);
          expect(await matching('.b')).toEqual(['d']);
          expect(await matching('.*')).toEqual([]);
          expect(await matching('%')).toEqual(['e']);
          expect(await matching('0% off_')).toEqual(['e']);
          expect(await matching('_')).toEqual(['e']);
          expect(await matching('\\Y')).toEqual(['e']);
          expect(await matching('a_e')).toEqual([]);
          expect(await matching('')).toEqual(['e', 'a', 'c', 'b', 'd']);
        }
      }),
    );

    it(
      'sorts both ways, limits and counts',
      withItems(async (c) => {
        expect(ids(await c.find({}, { sort: { n: -1 }, limit: 2 }))).toEqual(['d', 'c']);
        expect(ids(await c.find({}, { sort: { n: 1 }, limit: 3 }))).toEqual(['a', 'b', 'c']);
        expect(await c.count()).toBe(4);
        expect(await c.count({ tags: 'y' })).toBe(2);
      }),
    );

    it(
      'changing a result changes nothing stored (it is a copy, or frozen and the change throws)',
      withItems(async (c) => {
        const attempt = (change: () => void) => {
          try {
            change();
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError);
          }
        };
        const doc = (await c.get('a')) as Item;
        attempt(() => doc.tags.push('mutated'));
        const [found] = (await c.find({ n: 1 })) as Item[];
        attempt(() => (found!.name = 'changed'));
        const [many] = (await c.getMany(['a'])) as Item[];
        attempt(() => (many!.n = 99));
        expect(await c.get('a')).toEqual(items[0]);
      }),
    );

    it(
      'opens a collection again with its data, and clears it',
      withItems(async (c, store) => {
        const again = await store.collection<Item>('items', [{ fields: { n: 1 } }]);
        expect(await again.count()).toBe(4);
        await c.clear();
        expect(await again.count()).toBe(0);
      }),
    );

    it(
      'rebuilds a projection to the same state after clearing it',
      withItems(async (_c, store) => {
        const counters = await store.collection<{ _id: string; seen: string[] }>('rebuild');
        const events = Array.from({ length: 30 }, (_, i) => ({ key: `k${i % 4}`, id: `e${i}` }));
        const apply = async () => {
          for (const event of events) {
            const doc = (await counters.get(event.key)) ?? { _id: event.key, seen: [] };
            if (!doc.seen.includes(event.id)) await counters.put({ ...doc, seen: [...doc.seen, event.id] });
          }
        };
        await apply();
        const before = await counters.find({}, { sort: { _id: 1 } });
        await apply(); // a redelivery changes nothing
        expect(await counters.find({}, { sort: { _id: 1 } })).toEqual(before);
        await counters.clear();
        await apply();
        expect(await counters.find({}, { sort: { _id: 1 } })).toEqual(before);
      }),
    );
  });
};
