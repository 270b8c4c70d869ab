import { createProxyServer } from 'http-proxy-3';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@veil/ports';

/**
 * Cluster mode: the gateway is the single public port and forwards websocket upgrades on
 * /socket.io to the realtime replicas, round robin. The transport is websocket only, so no
 * sticky sessions are needed: one upgrade is one whole Socket.IO session.
 */
export const forwardRealtimeUpgrades = (server: Server, upstreams: string[], log: Logger): (() => void) => {
  const proxy = createProxyServer({ ws: true, xfwd: true });
  proxy.on('error', (err, _req, socket) => {
    log.warn({ err }, 'realtime upstream unavailable');
    if (socket && 'destroy' in socket) (socket as Duplex).destroy();
  });
  let next = 0;
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!req.url?.startsWith('/socket.io/')) {
      socket.destroy();
      return;
    }
    const target = upstreams[next++ % upstreams.length]!;
    proxy.ws(req, socket, head, { target });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    proxy.close();
  };
};
