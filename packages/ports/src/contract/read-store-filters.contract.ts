import { describe, expect, it } from 'vitest';
import type { Doc, Filter, ReadStore } from '../read-store.port.ts';
import type { WithStore } from './read-store-under-test.ts';

/**
 * The filter language's meaning (read-store.port.ts), which is MongoDB's: types never mix,
 * `null` also matches a missing field, arrays match by element (each range bound by any
 * element), `$icontains` is literal and Unicode-aware. Every query runs on three collections
 * holding the same values: without an index, with an index whose field holds arrays in some
 * documents, and with an index on scalars only, so a store that answers some of them from its
 * indexes must answer exactly as from the documents.
 */
type Mixed = Doc & { v?: unknown };

const values: Record<string, unknown> = {
  zero: 0,
  false: false,
  zeroText: '0',
  null: null,
  one: 1,
  true: true,
  half: 5.5,
  accented: 'Été',
  b: 'b',
  object: { a: 1 },
  array: [1, 'x', true],
  empty: [],
  nullInArray: [null],
  threeAndTen: [3, 10],
};
const missing = 'missing';
const documents: Mixed[] = [...Object.entries(values).map(([_id, v]) => ({ _id, v })), { _id: missing }];
const scalarDocuments = documents.filter((doc) => !Array.isArray(doc.v));

/** Each filter on `v` and every document it matches, in MongoDB. */
const cases: [Filter, string[]][] = [
  [{ v: 0 }, ['zero']],
  [{ v: false }, ['false']],
  [{ v: '0' }, ['zeroText']],
  [{ v: 1 }, ['one', 'array']],
  [{ v: true }, ['true', 'array']],
  [{ v: 'x' }, ['array']],
  [{ v: null }, ['null', missing, 'nullInArray']],
  [{ v: { $in: [0, 'b', null] } }, ['zero', 'b', 'null', missing, 'nullInArray']],
  [{ v: { $in: [false, 10] } }, ['false', 'threeAndTen']],
  [{ v: { $in: [1, 'x', true] } }, ['one', 'true', 'array']],
  [{ v: { $in: [] } }, []],
  [{ v: { $gt: 1 } }, ['half', 'threeAndTen']],
  [{ v: { $gte: 1 } }, ['one', 'half', 'array', 'threeAndTen']],
  [{ v: { $lt: 1 } }, ['zero']],
  [{ v: { $lte: 0 } }, ['zero']],
  // On an array, 10 meets the lower bound and 3 the upper one.
  [{ v: { $gt: 3, $lt: 10 } }, ['half', 'threeAndTen']],
  [{ v: { $gt: 'a' } }, ['accented', 'b', 'array']],
  [{ v: { $lt: 'a' } }, ['zeroText']],
  [{ v: { $icontains: 'ÉT' } }, ['accented']],
  [{ v: { $icontains: 'é' } }, ['accented']],
  [{ v: { $icontains: 'X' } }, ['array']],
  [{ v: { $icontains: '0' } }, ['zeroText']],
  [{ _id: 'b' }, ['b']],
  [{ _id: { $in: ['b', 'one', 'nope'] } }, ['b', 'one']],
  [{ _id: { $gte: 'true' } }, ['true', 'zero', 'zeroText']],
  [{ _id: 0 }, []],
  [{ v: 1, _id: { $lt: 'b' } }, ['array']],
];

const open = async (store: ReadStore) => {
  const plain = await store.collection<Mixed>('mixed_plain');
  const multikey = await store.collection<Mixed>('mixed_multikey', [{ fields: { v: 1 } }]);
  const single = await store.collection<Mixed>('mixed_single', [{ fields: { v: 1 } }]);
  for (const doc of documents) {
    await plain.put(structuredClone(doc));
    await multikey.put(structuredClone(doc));
  }
  for (const doc of scalarDocuments) await single.put(structuredClone(doc));
  return [
    { label: 'no index', collection: plain, holds: documents },
    { label: 'an index on a field with arrays', collection: multikey, holds: documents },
    { label: 'an index on scalars', collection: single, holds: scalarDocuments },
  ];
};

interface Ranked extends Doc {
  group: string;
  rank?: number | null;
  label?: string;
}

const ranked: Ranked[] = [
  { _id: 'r1', group: 'b', rank: 2, label: 'B' },
  { _id: 'r2', group: 'a', rank: 3, label: 'a' },
  { _id: 'r3', group: 'b', label: 'c' },
  { _id: 'r4', group: 'a', rank: -1.5, label: 'D' },
  { _id: 'r5', group: 'c', rank: 10, label: 'é' },
];

export const describeReadStoreFilters = (withStore: WithStore) => {
  const ids = (docs: Doc[]) => docs.map((d) => d._id).sort();

  describe('the filter language', () => {
    it(
      'matches as MongoDB does, the same with or without an index',
      withStore(async (store) => {
        for (const { label, collection, holds } of await open(store)) {
          const present = new Set(holds.map((doc) => doc._id));
          for (const [filter, expected] of cases) {
            const wanted = expected.filter((id) => present.has(id)).sort();
            const about = `${label}: ${JSON.stringify(filter)}`;
            expect(ids(await collection.find(filter)), about).toEqual(wanted);
            // Sorted by the field, a store may walk an index on it instead: the same documents, once each.
            expect(ids(await collection.find(filter, { sort: { v: 1 } })), `${about} sorted`).toEqual(wanted);
            expect(ids(await collection.find(filter, { sort: { v: -1 } })), `${about} sorted`).toEqual(
              wanted,
            );
            expect(await collection.count(filter), `${about} counted`).toBe(wanted.length);
          }
        }
      }),
    );

    it(
      'sorts missing values first ascending and last descending, by several fields, with or without an index',
      withStore(async (store) => {
        const plain = await store.collection<Ranked>('ranked_plain');
        const indexed = await store.collection<Ranked>('ranked_indexed', [
          { fields: { rank: 1 } },
          { fields: { group: 1, rank: 1 } },
        ]);
        for (const doc of ranked) {
          await plain.put(structuredClone(doc));
          await indexed.put(structuredClone(doc));
        }
        for (const c of [plain, indexed]) {
          const order = async (sort: Record<string, 1 | -1>, filter: Filter = {}, limit?: number) =>
            (await c.find(filter, { sort, ...(limit && { limit }) })).map((d) => d._id);
          expect(await order({ rank: 1 })).toEqual(['r3', 'r4', 'r1', 'r2', 'r5']);
          expect(await order({ rank: -1 })).toEqual(['r5', 'r2', 'r1', 'r4', 'r3']);
          expect(await order({ rank: -1 }, {}, 2)).toEqual(['r5', 'r2']);
          expect(await order({ group: 1, rank: -1 })).toEqual(['r2', 'r4', 'r1', 'r3', 'r5']);
          expect(await order({ group: -1, rank: 1 })).toEqual(['r5', 'r3', 'r1', 'r4', 'r2']);
          expect(await order({ rank: 1 }, { group: 'b' })).toEqual(['r3', 'r1']);
          expect(await order({ rank: -1 }, { group: { $in: ['a', 'c'] } })).toEqual(['r5', 'r2', 'r4']);
          expect(await order({ _id: -1 }, { rank: { $gt: 0 } })).toEqual(['r5', 'r2', 'r1']);
          // Strings sort by their UTF-8 bytes: upper case before lower case, accents last.
          expect(await order({ label: 1 })).toEqual(['r1', 'r4', 'r2', 'r3', 'r5']);
        }
      }),
    );

    it(
      'refuses what the language does not have: other operators, empty conditions, limits below 1',
      withStore(async (store) => {
        const c = await store.collection<Ranked>('ranked_refusals', [{ fields: { rank: 1 } }]);
        await c.put({ _id: 'x', group: 'a', rank: 1 });
        const refused = [
          { rank: { $ne: 1 } },
          { rank: {} },
          { group: { $regex: 'a' } },
          { rank: { $in: 1 } },
          { rank: { $gt: 0, $in: [1] } },
        ] as unknown as Filter[];
        for (const filter of refused) {
          await expect(c.find(filter), JSON.stringify(filter)).rejects.toThrow();
        }
        for (const limit of [0, -1, 1.5]) {
          await expect(c.find({}, { limit }), `limit ${limit}`).rejects.toThrow();
        }
      }),
    );
  });
};
