import { describe, expect, it } from 'vitest';
import type { Collection, Doc } from '@veil/ports';
import { createEmbeddedReadStore } from './embedded-read-store.ts';

interface Entry extends Doc {
  chat: string;
  seq: number;
}

type Range = { $lt: number } | { $gt: number } | { $gte: number; $lte: number } | number | undefined;

/** A small deterministic generator, so a failure can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** The plain answer: every entry tested, all of them sorted, then cut. */
const expectedPage = (
  all: Iterable<Entry>,
  chat: string,
  range: Range,
  direction: 1 | -1,
  limit?: number,
) => {
  const inRange = (seq: number) =>
    range === undefined
      ? true
      : typeof range === 'number'
        ? seq === range
        : '$lt' in range
          ? seq < range.$lt
          : '$gt' in range
            ? seq > range.$gt
            : seq >= range.$gte && seq <= range.$lte;
  return [...all]
    .filter((entry) => entry.chat === chat && inRange(entry.seq))
    .sort((a, b) => (a.seq - b.seq) * direction)
    .slice(0, limit)
    .map((entry) => entry._id);
};

describe('embedded read store: pages in order', () => {
  it('answers every page as filtering, sorting and cutting the whole collection would', async () => {
    const store = createEmbeddedReadStore();
    // The same writes go to a collection with the ordered index and to one that must scan
    // (and pick its first page without sorting everything); both must match the plain answer.
    const indexed = await store.collection<Entry>('indexed', [{ fields: { chat: 1, seq: 1 } }]);
    const scanned = await store.collection<Entry>('scanned');
    const model = new Map<string, Entry>();
    const next = random(7);
    const pick = (n: number) => Math.floor(next() * n);
    const both = async (write: (c: Collection<Entry>) => Promise<void>) => {
      await write(indexed);
      await write(scanned);
    };
    let seq = 0;
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
        model.set(id, doc);
        await both((c) => c.put(doc));
      } else if (roll < 0.9) {
        model.delete(id);
        await both((c) => c.delete(id));
      }
      const bound = pick(seq + 2);
      const range: Range = [
        { $lt: bound },
        { $gt: bound },
        { $gte: bound, $lte: bound + 40 },
        bound,
        undefined,
      ][pick(5)];
      const chat = `c${pick(6)}`;
      const direction: 1 | -1 = next() < 0.5 ? 1 : -1;
      const sorted = next() < 0.7;
      const limit = next() < 0.7 ? 1 + pick(60) : undefined;
      const filter = { chat, ...(range !== undefined && { seq: range }) };
      const options = { ...(sorted && { sort: { seq: direction } }), ...(limit && { limit }) };
      // Unsorted, the ordered index answers in ascending order; a scan promises no order.
      const expected = expectedPage(model.values(), chat, range, sorted ? direction : 1, limit);
      expect((await indexed.find(filter, options)).map((d) => d._id)).toEqual(expected);
      if (sorted) expect((await scanned.find(filter, options)).map((d) => d._id)).toEqual(expected);
      else {
        const everyMatch = expectedPage(model.values(), chat, range, 1);
        expect((await scanned.find(filter)).map((d) => d._id).sort()).toEqual(everyMatch.sort());
      }
    }
    expect(await indexed.count()).toBe(model.size);
  });
});
