import type { Logger } from './clock.port.ts';

/**
 * Where presence lives: per user, how many sockets are connected on which replica.
 * `connect`/`disconnect` report the transitions (first socket anywhere, last socket anywhere),
 * which is all the announcer needs.
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

export interface PresenceOptions {
  /** Unique per replica: presence entries are kept per instance. */
  instanceId: string;
  /** How long a silent replica's users stay online. */
  ttlSeconds: number;
  log: Logger;
}

/**
 * What lets realtime replicas act as one: a Socket.IO adapter that carries broadcasts between
 * them, and presence they share. One replica alone needs neither: no adapter (Socket.IO's
 * in-memory default) and presence in memory.
 */
export interface RealtimeScaling {
  /**
   * The value for Socket.IO's `adapter` server option, or undefined for its default. Typed
   * loosely so the ports do not depend on Socket.IO; the realtime gateway gives it its type.
   */
  socketAdapter(): Promise<unknown>;
  presence(options: PresenceOptions): Promise<PresenceStore>;
  close(): Promise<void>;
}
