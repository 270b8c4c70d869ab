import type { JWK } from 'jose';

export interface AuthSettings {
  accessTokenPrivateJwk: JWK;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Login attempts per client IP per 15 minutes. */
  loginAttemptsPerIp: number;
  /** Present in cluster mode: login attempts are counted in Redis so every replica sees them. */
  redisUrl?: string;
  /** Key prefix for Redis counters (tests use a random one). */
  redisKeyPrefix?: string;
}
