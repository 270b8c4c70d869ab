import type { JWK } from 'jose';

/** What the runtime hands the realtime gateway (built from the environment by @veil/runtime). */
export interface RealtimeSettings {
  /** Exact Origin values a browser may connect from; every other Origin (or none) is refused at the handshake. */
  allowedOrigins: string[];
  /** Public half of the auth service's access-token key (Ed25519 JWK). */
  accessTokenPublicJwk: JWK;
  /** With it: Redis adapter + Redis presence (any number of replicas). Without it: one node, all in memory. */
  redisUrl?: string;
  /** Unique per replica (pod name, host:pid...). Presence entries are kept per instance. */
  instanceId: string;
  /** How long a silent replica's users stay online. Default 15 s; tests use ~2 s. */
  presenceTtlSeconds?: number;
  /** Prefix of every Redis key and adapter channel this service uses. Default `veil:rt:`; tests use a random one. */
  redisKeyPrefix?: string;
}

export const defaultPresenceTtlSeconds = 15;
export const defaultRedisKeyPrefix = 'veil:rt:';

/** Keys read `<prefix>:presence:...` whether or not the configured prefix ends with ':'. */
export const redisKeyPrefixOf = (settings: Pick<RealtimeSettings, 'redisKeyPrefix'>): string => {
  const prefix = settings.redisKeyPrefix ?? defaultRedisKeyPrefix;
  return prefix.endsWith(':') ? prefix : `${prefix}:`;
};
