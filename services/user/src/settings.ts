export interface UserSettings {
  /** Present in cluster mode: key backup budgets are counted in Redis so every replica sees them. */
  redisUrl?: string;
  /** Key prefix for Redis counters (tests use a random one). */
  redisKeyPrefix?: string;
}
