import { describe, expect, it } from 'vitest';
import { DuplicateKeyError, type Doc } from '../read-store.port.ts';
import type { WithStore } from './read-store-under-test.ts';

/**
 * Unique indexes with MongoDB's rules (a missing field is a `null` key, one per index; array
 * elements are keys; a document never conflicts with itself), and `write`: several changes to
 * several collections, all or nothing on a transactional store, in order on any store.
 */
type Named = Doc & { name?: unknown; extra?: number };
type Pair = Doc & { a?: number; b?: number };

export const describeReadStoreWrites = (withStore: WithStore) => {
  const duplicate = (promise: Promise<unknown>) => expect(promise).rejects.toBeInstanceOf(DuplicateKeyError);

  describe('unique indexes and atomic writes', () => {
    it(
      'drops a collection with its documents and indexes; dropping one that is gone does nothing',
      withStore(async (store) => {
        const kept = await store.collection<Named>('dropped_names', [{ fields: { name: 1 }, unique: true }]);
        await kept.put({ _id: '1', name: 'ann' });
        await store.drop('dropped_names');
        await store.drop('dropped_names');
        await store.drop('never_made');
        // Opened again, it is empty, and the unique index it had is gone with it.
        const again = await store.collection<Named>('dropped_names');
        expect(await again.find({})).toEqual([]);
        await again.put({ _id: '1', name: 'bea' });
        await again.put({ _id: '2', name: 'bea' });
        expect(await again.count({ name: 'bea' })).toBe(2);
      }),
    );

    it(
      'keeps a unique field unique: null and missing are one value, arrays count by element',
      withStore(async (store) => {
        const users = await store.collection<Named>('unique_names', [{ fields: { name: 1 }, unique: true }]);
        await users.put({ _id: '1', name: 'ann' });
        await duplicate(users.put({ _id: '2', name: 'ann' }));
        expect(await users.get('2')).toBeNull();
        await users.put({ _id: '1', name: 'ann', extra: 1 }); // replacing itself
        await users.put({ _id: '1', name: 'bea' }); // frees "ann"
        await users.put({ _id: '2', name: 'ann' });
        await duplicate(users.put({ _id: '1', name: 'ann' })); // a replacement that would collide
        expect(await users.get('1')).toEqual({ _id: '1', name: 'bea' });

        await users.put({ _id: '3' });
        await duplicate(users.put({ _id: '4' }));
        await duplicate(users.put({ _id: '4', name: null }));
        await users.delete('3');
        await users.put({ _id: '4', name: null });

        await users.put({ _id: '5', name: 1 });
        await users.put({ _id: '6', name: '1' }); // another type, another key
        await users.put({ _id: '7', name: ['x', 'x'] }); // repeated within one document
        await duplicate(users.put({ _id: '8', name: ['y', 'x'] }));
        await duplicate(users.put({ _id: '8', name: 'x' }));
        await users.put({ _id: '8', name: ['y'] });
        expect(await users.count()).toBe(7);
        expect((await users.find({ name: 'x' })).map((d) => d._id)).toEqual(['7']);
      }),
    );

    it(
      'keeps a unique compound key unique as a combination',
      withStore(async (store) => {
        const pairs = await store.collection<Pair>('unique_pairs', [
          { fields: { a: 1, b: 1 }, unique: true },
        ]);
        await pairs.put({ _id: 'p1', a: 1, b: 1 });
        await pairs.put({ _id: 'p2', a: 1, b: 2 });
        await pairs.put({ _id: 'p3', a: 2, b: 1 });
        await duplicate(pairs.put({ _id: 'p4', a: 1, b: 1 }));
        await pairs.put({ _id: 'p4', a: 1 });
        await duplicate(pairs.put({ _id: 'p5', a: 1, b: null as unknown as number }));
        await pairs.put({ _id: 'p5', b: 1 });
        expect(await pairs.count({ a: 1 })).toBe(3);
      }),
    );

    it(
      'refuses to declare a unique index over documents that already share a key',
      withStore(async (store) => {
        const plain = await store.collection<Named>('unique_later');
        await plain.put({ _id: '1', name: 'same' });
        await plain.put({ _id: '2', name: 'same' });
        await duplicate(store.collection<Named>('unique_later', [{ fields: { name: 1 }, unique: true }]));
        // The collection works on as before, without the index.
        await plain.put({ _id: '3', name: 'same' });
        expect((await plain.find({ name: 'same' }, { sort: { _id: 1 } })).map((d) => d._id)).toEqual([
          '1',
          '2',
          '3',
        ]);
      }),
    );

    it(
      'writes changes to several collections; a failure keeps the order promise, and more when transactional',
      withStore(async (store) => {
        const keyed = await store.collection<Doc & { k: number }>('batch_keyed', [
          { fields: { k: 1 }, unique: true },
        ]);
        const plain = await store.collection<Doc & { n?: number }>('batch_plain');
        await store.write([
          { collection: 'batch_keyed', put: { _id: '1', k: 1 } as Doc },
          { collection: 'batch_plain', put: { _id: 'x', n: 1 } as Doc },
          { collection: 'batch_keyed', delete: 'absent' },
          { collection: 'batch_plain', put: { _id: 'y', n: 1 } as Doc },
          { collection: 'batch_plain', put: { _id: 'y', n: 2 } as Doc }, // the later change wins
          { collection: 'batch_plain', put: { _id: 'gone' } },
          { collection: 'batch_plain', delete: 'gone' },
        ]);
        expect(await keyed.get('1')).toEqual({ _id: '1', k: 1 });
        expect((await plain.find({}, { sort: { _id: 1 } })).map((d) => [d._id, d.n])).toEqual([
          ['x', 1],
          ['y', 2],
        ]);

        await duplicate(
          store.write([
            { collection: 'batch_plain', put: { _id: 'before' } },
            { collection: 'batch_plain', delete: 'x' },
            { collection: 'batch_keyed', put: { _id: '2', k: 1 } as Doc },
            { collection: 'batch_plain', put: { _id: 'after' } },
          ]),
        );
        expect(await keyed.get('2')).toBeNull();
        expect(await plain.get('after')).toBeNull();
        if (store.transactional) {
          expect(await plain.get('before')).toBeNull();
          expect(await plain.get('x')).not.toBeNull();
        } else {
          expect(await plain.get('before')).not.toBeNull();
          expect(await plain.get('x')).toBeNull();
        }
      }),
    );
  });
};
