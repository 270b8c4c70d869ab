import type { JWK } from 'jose';

export interface AuthSettings {
  accessTokenPrivateJwk: JWK;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Login attempts per client IP per 15 minutes. */
  loginAttemptsPerIp: number;
  /** A username claimed this long ago without credentials is a registration that died: freed. */
  registrationTimeoutSeconds: number;
}
