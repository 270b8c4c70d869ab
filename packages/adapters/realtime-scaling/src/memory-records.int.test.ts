import { describeExpiringRecordsContract } from '@veil/ports/contract';
import { createMemoryRecords } from './memory-records.ts';

describeExpiringRecordsContract('memory', async () => ({
  replicas: [createMemoryRecords()],
  teardown: async () => {},
}));
