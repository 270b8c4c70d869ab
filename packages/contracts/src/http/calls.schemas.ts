/**
 * `GET /api/v1/calls/turn` (docs/calls.md, "Network traversal"): the STUN/TURN servers a browser
 * gives its peer connections, with TURN credentials of the TURN REST scheme that expire after
 * `ttlSeconds`; `relay` when the operator wants every call to go through the relay.
 */
export interface CallIceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

export interface CallIceConfig {
  iceServers: CallIceServer[];
  iceTransportPolicy: 'all' | 'relay';
  ttlSeconds: number;
}
