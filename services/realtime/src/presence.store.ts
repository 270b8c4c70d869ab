/**
 * Where presence lives: per user, how many sockets are connected on which replica.
 * `connect`/`disconnect` report the transitions (first socket anywhere, last socket anywhere),
 * which is all the announcer needs. Memory for one node; scaling/redis-presence.ts for many.
 */
export interface PresenceStore {
  /** One more socket of `userId` on this replica. True when the user was offline everywhere before. */
  connect(userId: string): Promise<boolean>;
  /** One socket fewer. True when it was the user's last socket on any live replica. */
  disconnect(userId: string): Promise<boolean>;
  /** The subset of `userIds` that is online. */
  onlineAmong(userIds: readonly string[]): Promise<string[]>;
  /**
   * Starts background upkeep (heartbeat, sweeping crashed replicas). `onExpired` receives users
   * that went offline because their replica stopped answering, so they can be announced.
   */
  start(onExpired: (userIds: string[]) => void, onRevived: (userIds: string[]) => void): Promise<void>;
  /** Stops upkeep and withdraws this replica's entries. */
  stop(): Promise<void>;
}

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
      const wasOnline = sockets.delete(userId);
      return wasOnline;
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
