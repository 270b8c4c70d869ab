import type { JWK } from 'jose';

/** What the runtime hands the realtime gateway (built from the environment by @veil/app). */
export interface RealtimeSettings {
  /** Exact Origin values a browser may connect from; every other Origin (or none) is refused at the handshake. */
  allowedOrigins: string[];
  /** Public half of the auth service's access-token key (Ed25519 JWK). */
  accessTokenPublicJwk: JWK;
  /** Unique per replica (pod name, host:pid...). Presence entries are kept per instance. */
  instanceId: string;
  /** How long a silent replica's users stay online. Default 15 s; tests use ~2 s. */
  presenceTtlSeconds?: number;
  /** How long a browser link stays open. Default `limits.linkTtlSeconds` (2 minutes); tests use a few seconds. */
  linkTtlSeconds?: number;
  /** The per-user write budget, the HTTP gateway's (`WRITES_PER_USER_PER_MINUTE`); default 600. */
  writesPerUserPerMinute?: number;
}

export const defaultPresenceTtlSeconds = 15;
