import { describeReadStoreContract } from '@veil/ports/contract';
import { createSqliteReadStore } from './sqlite-read-store.ts';

describeReadStoreContract('SQLite (in memory)', async () => {
  const store = createSqliteReadStore({ file: ':memory:' });
  return { store, teardown: () => store.close() };
});
