import type { JWK } from 'jose';
import type { WriteBudgets } from './middleware/write-limits.ts';
import type { TurnSettings } from './routes/v1/calls.routes.ts';

export interface GatewaySettings {
  accessTokenPublicJwk: JWK;
  /** Built web client (web/dist); omitted: the gateway serves the API only. */
  webDist?: string;
  /** Realtime replicas to forward /socket.io upgrades to (cluster mode); omitted: same process. */
  realtimeUpstreams?: string[];
  /** Express `trust proxy`: how many proxy hops to trust for the client IP (login throttling). */
  trustProxyHops: number;
  /** Browsers reach the app over HTTPS: send HSTS and upgrade-insecure-requests. */
  servedOverHttps: boolean;
  rpcTimeoutMs: number;
  /** Usernames holding the operator role (`VEIL_OPERATORS`); omitted: no one. */
  operators?: string[];
  writeBudgets: WriteBudgets;
  /** STUN/TURN for calls (`TURN_*`); absent: none. */
  turn?: TurnSettings;
}
