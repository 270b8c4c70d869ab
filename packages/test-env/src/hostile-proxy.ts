import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';

/**
 * A hostile server for tests: an HTTP and WebSocket proxy in front of a real Veil that browsers
 * talk to instead, and that changes what the test tells it to, as an operator who controls the
 * server (but not the browsers) could. It rewrites the JSON answer of a route, for everyone or
 * per viewer, rewrites, drops or injects Socket.IO events in either direction, and records every
 * API request with its JSON body and every socket event, so a test can look at everything the
 * browsers sent.
 *
 * The viewer is the user id in the request's bearer token (the JWT's `sub`, read, not verified:
 * the proxy is the attacker, not a gatekeeper); on a socket, the token of its Socket.IO CONNECT
 * packet.
 */

/** Who made a request: the user id of its access token, or null without one. */
export type Viewer = string | null;

export interface RouteContext {
  viewer: Viewer;
  method: string;
  /** The path without the query. */
  path: string;
  /** The named `:params` of the route's pattern. */
  params: Record<string, string>;
  /** The answer's status as Veil gave it. */
  status: number;
}

/** Returns the body to send instead, or undefined to send Veil's unchanged. */
export type JsonRewrite = (body: unknown, context: RouteContext) => unknown;

/** One Socket.IO event: its name and arguments (the acknowledgement id is kept as it was). */
export interface SocketEvent {
  name: string;
  args: unknown[];
}

/** `toClient`: what Veil sends a browser; `toServer`: what a browser sends Veil. */
export type Direction = 'toClient' | 'toServer';

/** Returns the event to pass on instead, null to drop it, or undefined to pass it unchanged. */
export type EventRewrite = (
  event: SocketEvent,
  context: { viewer: Viewer },
) => SocketEvent | null | undefined;

export interface RecordedRequest {
  method: string;
  path: string;
  viewer: Viewer;
  /** The parsed JSON body, if it had one. */
  body: unknown;
}

/** One Socket.IO event as it passed the proxy (after any rewrite). */
export interface RecordedEvent extends SocketEvent {
  direction: Direction;
  viewer: Viewer;
}

export interface HostileProxy {
  url: string;
  /** Every API request browsers made through the proxy, oldest first. */
  readonly requests: readonly RecordedRequest[];
  /** Every Socket.IO event that passed, either way, oldest first. */
  readonly events: readonly RecordedEvent[];
  /**
   * Rewrites the JSON answers of `method` + `path` (a pattern like `/api/v1/user/publicKey/:id`,
   * or a RegExp on the path) from now on; returns a function that stops it.
   */
  rewriteJson(route: { method: string; path: string | RegExp }, rewrite: JsonRewrite): () => void;
  /**
   * Answers `method` + `path` itself with `status` and a JSON error, never passing the request on
   * (a server that drops what a browser sends); returns a function that stops it.
   */
  withhold(route: { method: string; path: string | RegExp }, status?: number): () => void;
  /** Rewrites (or drops) Socket.IO events going one way; returns a function that stops it. */
  rewriteEvents(direction: Direction, rewrite: EventRewrite): () => void;
  /** Sends an event the other side never sent to every open socket (of `viewer`, if given). */
  injectEvent(direction: Direction, event: SocketEvent, viewer?: Viewer): void;
  /** Stops every rewrite: the proxy passes everything on as it is. */
  behave(): void;
  close(): Promise<void>;
}

/** The `sub` claim of a JWT, decoded without checking its signature; null when unreadable. */
export const tokenSubject = (token: string | undefined): Viewer => {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
};

const bearerViewer = (req: IncomingMessage): Viewer => {
  const match = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
  return tokenSubject(match?.[1]);
};

/** `/a/:id/b` as a RegExp with a named group per param. */
const routePattern = (path: string | RegExp): RegExp =>
  typeof path === 'string'
    ? new RegExp(
        `^${path
          .split('/')
          .map((part) =>
            part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/')}$`,
      )
    : path;

/** A Socket.IO event packet inside an Engine.IO message: `42`, a namespace, an ack id, the array. */
const eventPacket = /^42(\/[^,]*,)?(\d*)(\[[\s\S]*\])$/;

const parseEvent = (frame: string): { prefix: string; event: SocketEvent } | null => {
  const match = eventPacket.exec(frame);
  if (!match) return null;
  try {
    const [name, ...args] = JSON.parse(match[3]!) as [unknown, ...unknown[]];
    if (typeof name !== 'string') return null;
    return { prefix: `42${match[1] ?? ''}${match[2]}`, event: { name, args } };
  } catch {
    return null;
  }
};

const encodeEvent = (prefix: string, event: SocketEvent) =>
  `${prefix}${JSON.stringify([event.name, ...event.args])}`;

/** The token a Socket.IO client sends in its CONNECT packet (`40{"token":…}`). */
const connectToken = (frame: string): string | undefined => {
  const match = /^40(?:\/[^,]*,)?(\{[\s\S]*\})$/.exec(frame);
  if (!match) return undefined;
  try {
    const { token } = JSON.parse(match[1]!) as { token?: unknown };
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
};

const readBody = (stream: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

const parseJson = (bytes: Buffer): unknown => {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
};

/** Starts a proxy on loopback in front of `target` (Veil's base URL). */
export const startHostileProxy = async ({ target }: { target: string }): Promise<HostileProxy> => {
  const upstream = new URL(target);
  const routes: { method: string; pattern: RegExp; rewrite: JsonRewrite }[] = [];
  const withheld: { method: string; pattern: RegExp; status: number }[] = [];
  const eventRewrites: { direction: Direction; rewrite: EventRewrite }[] = [];
  const requests: RecordedRequest[] = [];
  const events: RecordedEvent[] = [];
  const sockets = new Set<{ viewer: Viewer; client: WebSocket; server: WebSocket }>();

  /** Veil sees requests as coming from its own origin: it is configured for the address the proxy serves. */
  const upstreamHeaders = (req: IncomingMessage) => ({
    ...req.headers,
    ...(req.headers.origin && { origin: upstream.origin }),
  });

  const matchRoute = (method: string, path: string) => {
    for (const route of routes) {
      if (route.method !== method) continue;
      const match = route.pattern.exec(path);
      if (match) return { route, params: { ...match.groups } };
    }
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]!;
    const viewer = bearerViewer(req);
    const body = await readBody(req);
    if (path.startsWith('/api/'))
      requests.push({
        method,
        path,
        viewer,
        body: req.headers['content-type']?.includes('json') ? parseJson(body) : undefined,
      });
    const dropped = withheld.find((rule) => rule.method === method && rule.pattern.test(path));
    if (dropped) {
      const answer = JSON.stringify({ success: false, message: 'Service unavailable', code: 'UNAVAILABLE' });
      res.writeHead(dropped.status, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
      return;
    }
    const matched = matchRoute(method, path);
    const headers = upstreamHeaders(req);
    // A rewritten answer is read whole: ask for it uncompressed.
    if (matched) headers['accept-encoding'] = 'identity';
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method, path: req.url, headers },
      (answer) => {
        const status = answer.statusCode ?? 502;
        if (!matched || !answer.headers['content-type']?.includes('json')) {
          res.writeHead(status, answer.headers);
          answer.pipe(res);
          return;
        }
        void readBody(answer).then((bytes) => {
          const original = parseJson(bytes);
          const replaced = matched.route.rewrite(original, {
            viewer,
            method,
            path,
            params: matched.params,
            status,
          });
          const out = replaced === undefined ? bytes : Buffer.from(JSON.stringify(replaced));
          const {
            'content-length': _length,
            'transfer-encoding': _encoding,
            etag: _etag,
            ...rest
          } = answer.headers;
          res.writeHead(status, { ...rest, 'content-length': out.length });
          res.end(out);
        });
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    forward.end(body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });

  const rewriteFrame = (direction: Direction, frame: string, viewer: Viewer): string | null => {
    const parsed = parseEvent(frame);
    if (!parsed) return frame;
    let event: SocketEvent | null = parsed.event;
    for (const rule of eventRewrites) {
      if (rule.direction !== direction || !event) continue;
      const next = rule.rewrite(event, { viewer });
      if (next !== undefined) event = next;
    }
    if (event) events.push({ ...event, direction, viewer });
    return event && encodeEvent(parsed.prefix, event);
  };

  const webSockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    webSockets.handleUpgrade(req, socket, head, (client) => {
      const server = new WebSocket(`ws://${upstream.host}${req.url ?? '/'}`, {
        headers: upstreamHeaders(req),
      });
      const link = { viewer: null as Viewer, client, server };
      sockets.add(link);
      const waiting: { data: RawData; isBinary: boolean }[] = [];
      const pass = (to: WebSocket, direction: Direction, data: RawData, isBinary: boolean) => {
        if (isBinary) return to.send(data, { binary: true });
        const frame = data.toString();
        if (direction === 'toServer') link.viewer ??= tokenSubject(connectToken(frame));
        const out = rewriteFrame(direction, frame, link.viewer);
        if (out !== null) to.send(out);
      };
      client.on('message', (data, isBinary) => {
        if (server.readyState === WebSocket.OPEN) pass(server, 'toServer', data, isBinary);
        else waiting.push({ data, isBinary });
      });
      server.on('open', () => {
        for (const { data, isBinary } of waiting.splice(0)) pass(server, 'toServer', data, isBinary);
      });
      server.on('message', (data, isBinary) => pass(client, 'toClient', data, isBinary));
      const end = () => {
        sockets.delete(link);
        client.close();
        server.close();
      };
      client.on('close', end);
      server.on('close', end);
      client.on('error', end);
      server.on('error', end);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const remove =
    <T>(list: T[], item: T) =>
    () => {
      const index = list.indexOf(item);
      if (index >= 0) list.splice(index, 1);
    };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    events,
    rewriteJson(route, rewrite) {
      const rule = { method: route.method.toUpperCase(), pattern: routePattern(route.path), rewrite };
      routes.push(rule);
      return remove(routes, rule);
    },
    withhold(route, status = 503) {
      const rule = { method: route.method.toUpperCase(), pattern: routePattern(route.path), status };
      withheld.push(rule);
      return remove(withheld, rule);
    },
    rewriteEvents(direction, rewrite) {
      const rule = { direction, rewrite };
      eventRewrites.push(rule);
      return remove(eventRewrites, rule);
    },
    injectEvent(direction, event, viewer) {
      for (const link of sockets) {
        if (viewer !== undefined && link.viewer !== viewer) continue;
        const to = direction === 'toClient' ? link.client : link.server;
        if (to.readyState !== WebSocket.OPEN) continue;
        events.push({ ...event, direction, viewer: link.viewer });
        to.send(encodeEvent('42', event));
      }
    },
    behave() {
      routes.length = 0;
      withheld.length = 0;
      eventRewrites.length = 0;
    },
    async close() {
      for (const link of sockets) {
        link.client.terminate();
        link.server.terminate();
      }
      webSockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
