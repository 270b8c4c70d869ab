import { describe, expect, it } from 'vitest';
import { QueryCache, queryKeyOf } from './query-cache.ts';

describe('the cache of recent queries', () => {
  it('keeps an answer until any change to its collection commits, and only its own', () => {
    const cache = new QueryCache(10_000);
    const key = queryKeyOf({ userId: { $in: ['u1', 'u2'] } })!;
    cache.remember('subscriptions', key, ['{"_id":"s1"}']);
    cache.remember('names', key, []);
    expect(cache.get('subscriptions', key)).toEqual(['{"_id":"s1"}']);
    cache.changed('subscriptions');
    expect(cache.get('subscriptions', key)).toBeUndefined();
    expect(cache.get('names', key)).toEqual([]);
  });

  it('tells apart every query it keys, and keys none that JSON would blur', () => {
    expect(queryKeyOf({ n: 1 }, { limit: 2 })).not.toBe(queryKeyOf({ n: 1 }, { limit: 3 }));
    expect(queryKeyOf({ n: '1' })).not.toBe(queryKeyOf({ n: 1 }));
    // JSON writes these as null or leaves them out: they are asked of SQLite every time.
    expect(queryKeyOf({ n: Number.NaN })).toBeUndefined();
    expect(queryKeyOf({ n: { $in: [Infinity] } })).toBeUndefined();
    expect(queryKeyOf({ n: undefined } as never)).toBeUndefined();
    expect(queryKeyOf({ at: new Date(0) } as never)).toBeUndefined();
  });

  it('drops the least recently asked first when full, and keeps no answer over a 64th of its size', () => {
    // Each entry is 16 characters (its key, `c`, a separator and four characters, and its answer).
    const cache = new QueryCache(64 * 16);
    const answer = ['x'.repeat(10)];
    const query = (i: number) => `q${String(i).padStart(3, '0')}`;
    for (let i = 0; i < 64; i++) cache.remember('c', query(i), answer);
    expect(cache.get('c', query(0))).toBe(answer);
    cache.remember('c', query(64), answer);
    // q001 was asked least recently: out; q000, asked a moment ago, stays.
    expect(cache.get('c', query(1))).toBeUndefined();
    expect(cache.get('c', query(0))).toBe(answer);
    expect(cache.get('c', query(64))).toBe(answer);
    cache.remember('c', 'big', ['x'.repeat(16)]);
    expect(cache.get('c', 'big')).toBeUndefined();
  });
});
