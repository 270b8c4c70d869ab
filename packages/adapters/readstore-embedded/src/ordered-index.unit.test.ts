import { describe, expect, it } from 'vitest';
import type { Collection, Doc, Filter, FindOptions } from '@veil/ports';
import { createEmbeddedReadStore } from './embedded-read-store.ts';

interface Entry extends Doc {
  chat: string;
  seq: number;
}

/** A small deterministic generator, so a failure can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('ordered index (embedded read store)', () => {
  it('answers every page as a scan and sort of the whole collection would', async () => {
    const store = createEmbeddedReadStore();
    const indexed = await store.collection<Entry>('indexed', [{ fields: { chat: 1, seq: 1 } }]);
    const scanned = await store.collection<Entry>('scanned');
    const next = random(7);
    const pick = (n: number) => Math.floor(next() * n);
    const both = async (write: (c: Collection<Entry>) => Promise<void>) => {
      await write(indexed);
      await write(scanned);
    };
    let seq = 0;
    const queries: [Filter, FindOptions][] = [];
    for (let step = 0; step < 3_000; step++) {
      const id = `m${pick(400)}`;
      const roll = next();
      // Mostly new positions in order, some out of order (never a tie: the order of equal keys is
      // not part of the contract), moves to another chat, deletes.
      if (roll < 0.8) {
        const doc = {
          _id: id,
          chat: `c${pick(5)}`,
          seq: roll < 0.7 ? ++seq : pick(seq) + (step + 1) / 10_000,
        };
        await both((c) => c.put(doc));
      } else if (roll < 0.9) {
        await both((c) => c.delete(id));
      }
      const bound = pick(seq + 2);
      const range = [{ $lt: bound }, { $gt: bound }, { $gte: bound, $lte: bound + 40 }, bound, undefined][
        pick(5)
      ];
      const filter: Filter = { chat: `c${pick(6)}`, ...(range !== undefined && { seq: range }) };
      const sort = [{ seq: 1 as const }, { seq: -1 as const }, undefined][pick(3)];
      queries.push([filter, { ...(sort && { sort }), ...(next() < 0.7 && { limit: 1 + pick(60) }) }]);
      const [lastFilter, lastOptions] = queries.at(-1)!;
      const expected = await scanned.find(lastFilter, { sort: { seq: 1 }, ...lastOptions });
      expect((await indexed.find(lastFilter, lastOptions)).map((d) => d._id)).toEqual(
        expected.map((d) => d._id),
      );
    }
    expect(await indexed.count()).toBe(await scanned.count());
  });
});
