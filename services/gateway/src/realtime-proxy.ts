import { createProxyServer } from 'http-proxy-3';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@veil/ports';
import { watchUpstreams, type UpstreamHealthOptions } from './upstream-health.ts';

/** The target an upgrade was sent to, so a failure can be pinned on it. */
const targetOf = new WeakMap<IncomingMessage, string>();

/**
 * Cluster mode: the gateway is the single public port and forwards websocket upgrades on
 * /socket.io to the realtime replicas that answer their readiness probe, round robin. The
 * transport is websocket only, so no sticky sessions are needed: one upgrade is one whole
 * Socket.IO session, and a client whose replica died reconnects through here to a live one.
 */
export const forwardRealtimeUpgrades = (
  server: Server,
  upstreams: string[],
  log: Logger,
  health?: UpstreamHealthOptions,
): (() => void) => {
  const replicas = watchUpstreams(upstreams, log, health);
  const proxy = createProxyServer({ ws: true, xfwd: true });
  proxy.on('error', (err, req, socket) => {
    const target = targetOf.get(req);
    log.warn({ err, upstream: target }, 'realtime upstream unavailable');
    if (target) replicas.markDown(target);
    if (socket && 'destroy' in socket) (socket as Duplex).destroy();
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!req.url?.startsWith('/socket.io/')) {
      socket.destroy();
      return;
    }
    const target = replicas.pick();
    if (!target) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    targetOf.set(req, target);
    proxy.ws(req, socket, head, { target });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    replicas.stop();
    proxy.close();
  };
};
