import type { ExpiringRecords, PresenceStore, RealtimeScaling } from '@veil/ports';
import { createMemoryRecords } from './memory-records.ts';

/**
 * One replica alone: presence is a count per user in this process, and last-seen times live as
 * long as the process (presence is ephemeral in the embedded mode, docs/realtime.md).
 */
export const createMemoryPresence = (): PresenceStore => {
  const sockets = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  return {
    async connect(userId) {
      const count = (sockets.get(userId) ?? 0) + 1;
      sockets.set(userId, count);
      return count === 1;
    },
    async disconnect(userId, at) {
      const count = (sockets.get(userId) ?? 0) - 1;
      if (count > 0) {
        sockets.set(userId, count);
        return false;
      }
      if (!sockets.delete(userId)) return false;
      lastSeen.set(userId, at);
      return true;
    },
    async onlineAmong(userIds) {
      return userIds.filter((id) => (sockets.get(id) ?? 0) > 0);
    },
    async lastSeenAmong(userIds) {
      const known = new Map<string, number>();
      for (const id of userIds) {
        const at = lastSeen.get(id);
        if (at !== undefined) known.set(id, at);
      }
      return known;
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
