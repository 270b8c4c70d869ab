import type { PresenceStore, RealtimeScaling } from '@veil/ports';

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

/** The embedded app and any single realtime replica: Socket.IO's default adapter, presence in memory. */
export const createMemoryScaling = (): RealtimeScaling => ({
  socketAdapter: async () => undefined,
  presence: async () => createMemoryPresence(),
  close: async () => {},
});
