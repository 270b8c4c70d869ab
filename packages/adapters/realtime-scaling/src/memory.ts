import type { ExpiringRecords, PresenceStore, RealtimeScaling } from '@veil/ports';
import { createMemoryRecords } from './memory-records.ts';

/** One replica alone: presence is a count per user in this process. */
export const createMemoryPresence = (): PresenceStore => {
  const sockets = new Map<string, number>();
  return {
    async connect(userId) {
      const count = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, count);
      return count === 1;
    },
    async disconnect(userId) {
      const count = (sockets.get(userId) ?? 0) - 1;
      if (count > 0) {
        sockets.set(userId, count);
        return false;
      }
      return sockets.delete(userId);
    },
    async onlineAmong(userIds) {
      return userIds.filter((id) => (sockets.get(id) ?? 0) > 0);
    },
    async start() {},
    async stop() {
      sockets.clear();
    },
  };
};

/**
 * The embedded app and any single realtime replica: Socket.IO's default adapter, presence and
 * records in memory.
 */
export const createMemoryScaling = (): RealtimeScaling => {
  const namespaces = new Map<string, ExpiringRecords>();
  return {
    socketAdapter: async () => undefined,
    presence: async () => createMemoryPresence(),
    records: async (namespace) => {
      let records = namespaces.get(namespace);
      if (!records) namespaces.set(namespace, (records = createMemoryRecords()));
      return records;
    },
    close: async () => {},
  };
};
