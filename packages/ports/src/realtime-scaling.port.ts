import type { Logger } from './clock.port.ts';

/**
 * Where presence lives: per user, how many sockets are connected on which replica, and when
 * each user was last seen (their last socket went away).
 * `connect`/`disconnect` report the transitions (first socket anywhere, last socket anywhere),
 * which is all the announcer needs.
 */
export interface PresenceStore {
  /** One more socket of `userId` on this replica. True when the user was offline everywhere before. */
  connect(userId: string): Promise<boolean>;
  /**
   * One socket fewer. True when it was the user's last socket on any live replica; then `at`
   * (milliseconds since the epoch, the server's clock) is recorded as their last-seen time.
   */
  disconnect(userId: string, at: number): Promise<boolean>;
  /** The subset of `userIds` that is online. */
  onlineAmong(userIds: readonly string[]): Promise<string[]>;
  /**
   * When each of `userIds` was last seen, for those with a recorded time (in milliseconds since
   * the epoch). A user online now keeps the time of their previous departure.
   */
  lastSeenAmong(userIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Starts background upkeep (heartbeat, sweeping crashed replicas). `onExpired` receives users
   * that went offline because their replica stopped answering, so they can be announced, and the
   * moment of the sweep, recorded as their last-seen time.
   */
  start(
    onExpired: (userIds: string[], at: number) => void,
    onRevived: (userIds: string[]) => void,
  ): Promise<void>;
  /** Stops upkeep and withdraws this replica's entries. */
  stop(): Promise<void>;
}

export interface PresenceOptions {
  /** Unique per replica: presence entries are kept per instance. */
  instanceId: string;
  /** How long a silent replica's users stay online. */
  ttlSeconds: number;
  /** The server's clock (milliseconds since the epoch): a swept replica's users were last seen then. */
  now: () => number;
  log: Logger;
}

/**
 * Small records every replica sees, each with a version for compare-and-replace and an expiry:
 * short-lived shared state such as a browser link's rendezvous. Values are opaque strings.
 */
export interface ExpiringRecords {
  /** Stores `value` under `key` unless the key exists; it vanishes after `ttlMs`. True when stored. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value and its version (1 when created, one more per replace), or null when absent or expired. */
  read(key: string): Promise<{ value: string; version: number } | null>;
  /**
   * Replaces the value when its version is still `version`, keeping the expiry. False when another
   * replica replaced it first (read again and decide again) or it is gone.
   */
  replace(key: string, version: number, value: string): Promise<boolean>;
}

/**
 * What lets realtime replicas act as one: a Socket.IO adapter that carries broadcasts between
 * them, and presence and records they share. One replica alone needs none of it: no adapter
 * (Socket.IO's in-memory default), presence and records in memory.
 */
export interface RealtimeScaling {
  /**
   * The value for Socket.IO's `adapter` server option, or undefined for its default. Typed
   * loosely so the ports do not depend on Socket.IO; the realtime gateway gives it its type.
   */
  socketAdapter(): Promise<unknown>;
  presence(options: PresenceOptions): Promise<PresenceStore>;
  /** Records shared by the replicas, under `namespace` (one per kind of record). */
  records(namespace: string): Promise<ExpiringRecords>;
  close(): Promise<void>;
}
