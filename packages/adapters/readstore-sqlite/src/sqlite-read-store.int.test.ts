import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeReadStoreContract } from '@veil/ports/contract';
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
