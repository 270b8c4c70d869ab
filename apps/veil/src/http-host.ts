import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpHost } from '@veil/ports';

/**
 * Every process listens on one port: /healthz (alive) and /readyz (ready to serve) for probes,
 * /metrics for Prometheus, everything else to the gateway's app when this process runs the gateway.
 * /metrics answers only requests that reach the process directly, as Prometheus' scrapes of a pod
 * do: one a proxy forwarded (it says so in X-Forwarded-For) came through the public ingress, which
 * routes every path to the gateway, and is served as any other path (the web client, or a 404).
 */
export interface RuntimeHttp extends HttpHost {
  server: Server;
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export const createHttpHost = (
  isReady: () => Promise<{ ready: boolean; detail: unknown }>,
  servesApp: boolean,
  metrics: { contentType: string; scrape(): Promise<string> },
): RuntimeHttp => {
  let app: RequestListener | null = null;
  const server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (url === '/readyz') {
      const { ready, detail } = await isReady();
      res
        .writeHead(ready ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ready, detail }));
      return;
    }
    if (url === '/metrics' && req.headers['x-forwarded-for'] === undefined && req.method === 'GET') {
      await metrics.scrape().then(
        (text) =>
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
        () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n'),
      );
      return;
    }
    if (app) return app(req, res);
    if (servesApp) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end('{"success":false,"message":"Veil is starting, try again in a moment"}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"message":"Not found"}');
  });
  // Idle keep-alive connections must not hold shutdown hostage.
  server.keepAliveTimeout = 5_000;
  // Nor must websockets: an upgraded socket keeps the server open until it ends.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (_req, socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  });
  return {
    server,
    setRequestHandler(listener) {
      app = listener;
    },
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Cut, not closed politely: a Socket.IO client that loses its transport reconnects by
        // itself (to another replica, or to this process once it is back); one told "server
        // disconnect" would not.
        for (const socket of upgraded) socket.destroy();
      }),
  };
};
