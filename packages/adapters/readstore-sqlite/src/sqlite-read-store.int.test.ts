import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Doc } from '@veil/ports';
import { describeReadStoreContract } from '@veil/ports/contract';
import { describe, expect, it } from 'vitest';
import { createSqliteReadStore } from './sqlite-read-store.ts';

describeReadStoreContract('SQLite (in memory)', async () => {
  const store = createSqliteReadStore({ file: ':memory:' });
  return { store, teardown: () => store.close() };
});

describeReadStoreContract('SQLite (a file, with its writer thread)', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'veil-read-store-'));
  const store = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  return {
    store,
    teardown: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('SQLite read store, a file with its writer thread', () => {
  it('folds case beyond ASCII for keys written beside ASCII ones, whichever the index saw first', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'veil-read-store-'));
    const store = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
    try {
      const names = await store.collection<Doc & { name: string; tags: string[] }>('names', [
        { fields: { name: 1 } },
        { fields: { tags: 1 } },
      ]);
      await names.put({ _id: 'ascii', name: 'plain', tags: ['a', 'b'] });
      // The Kelvin sign lower-cases to an ASCII k: only a search that knows the index holds keys
      // beyond ASCII finds it from an ASCII needle.
      await names.put({ _id: 'kelvin', name: '\u212Aelvin', tags: ['\u212A', 'x'] });
      expect((await names.find({ name: { $icontains: 'kelvin' } })).map((doc) => doc._id)).toEqual([
        'kelvin',
      ]);
      expect((await names.find({ tags: { $icontains: 'k' } })).map((doc) => doc._id)).toEqual(['kelvin']);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
