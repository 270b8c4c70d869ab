import { describeReadStoreContract } from '@veil/ports/contract';
import { createEmbeddedReadStore } from './embedded-read-store.ts';

describeReadStoreContract('embedded (in memory)', async () => {
  const store = createEmbeddedReadStore();
  return { store, teardown: () => store.close() };
});
