import { describe, expect, it } from 'vitest';
import { describeReadStoreContract } from '@veil/ports/contract';
import { uniquePrefix } from '@veil/test-env';
import { createMongoReadStore, toMongoFilter } from './mongo-read-store.ts';

/**
 * The read-store contract on a real MongoDB when MONGODB_URL is set (none runs on this machine).
 * Each run uses its own database and drops it afterwards.
 */
const url = process.env.MONGODB_URL;
if (!url) console.log('readstore-mongo: skipped: MONGODB_URL not set');

describe.skipIf(!url)('MongoDB (skipped: MONGODB_URL not set)', () => {
  describeReadStoreContract('MongoDB', async () => {
    const database = uniquePrefix('veiltest');
    const store = await createMongoReadStore({ url: url!, database });
    return {
      store,
      teardown: async () => {
        const { MongoClient } = await import('mongodb');
        const client = await new MongoClient(url!).connect();
        await client.db(database).dropDatabase();
        await client.close();
        await store.close();
      },
    };
  });
});

describe('MongoDB filter translation (no server needed)', () => {
  it('escapes $icontains into a literal, case-insensitive regex and passes the rest through', () => {
    expect(
      toMongoFilter({ name: { $icontains: 'A.b(C)' }, n: { $gt: 1 }, tags: 'x', k: { $in: [1, 2] } }),
    ).toEqual({
      name: { $regex: 'a\\.b\\(c\\)', $options: 'i' },
      n: { $gt: 1 },
      tags: 'x',
      k: { $in: [1, 2] },
    });
  });

  it('refuses what the port language does not have, before it reaches the server', () => {
    expect(() => toMongoFilter({ name: { $regex: 'a' } } as never)).toThrow(/Unsupported condition on name/);
    expect(() => toMongoFilter({ name: {} } as never)).toThrow(/Unsupported condition on name/);
  });
});
