import express, { type Express, type Request } from 'express';
import type { IncomingMessage } from 'node:http';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { limits } from '@veil/contracts';
import type { BlobStore, IdGenerator, Logger, Metrics, RateLimits, Rpc, Tracing } from '@veil/ports';
import type { AccessTokenVerifier } from '@veil/tokens';
import { requireAuth } from './middleware/auth.ts';
import { observeRequests } from './middleware/observe-requests.ts';
import type { RequestSummaryRecorder } from './middleware/request-summary.ts';
import { notFound, problemDetails } from './middleware/problem-details.ts';
import { operatorRole } from './middleware/operator.ts';
import { writeLimits, type WriteBudgets } from './middleware/write-limits.ts';
import { serviceClients } from './rpc-clients.ts';
import { callRoutes, turnCredentialBudget, type TurnSettings } from './routes/v1/calls.routes.ts';
import { attachmentRoutes } from './routes/v1/attachment.routes.ts';
import { chatRoutes } from './routes/v1/chat.routes.ts';
import { mediaRoutes } from './routes/v1/media.routes.ts';
import { messageRoutes } from './routes/v1/message.routes.ts';
import { operatorRoutes } from './routes/v1/operator.routes.ts';
import { pushRoutes } from './routes/v1/push.routes.ts';
import { keyLogRoutes } from './routes/v1/key-log.routes.ts';
import { userRoutes } from './routes/v1/user.routes.ts';

export interface AppDeps {
  rpc: Rpc;
  blobs: BlobStore;
  rateLimits: RateLimits;
  writeBudgets: WriteBudgets;
  ids: IdGenerator;
  log: Logger;
  metrics: Metrics;
  tracing: Tracing;
  requestSummary: RequestSummaryRecorder;
  verifyAccessToken: AccessTokenVerifier;
  rpcTimeoutMs: number;
  trustProxyHops: number;
  /** Browsers reach the app over HTTPS: only then HSTS and upgrade-insecure-requests. */
  servedOverHttps?: boolean;
  /** Usernames holding the operator role (reports and suspensions); none: no one. */
  operators?: readonly string[];
  webDist?: string;
  /** The TURN servers calls may use; absent: none (calls try direct connections only). */
  turn?: TurnSettings;
}

/** A host as a CSP source may carry it: a name or an address, and a port; anything else is left out. */
const plainHost = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * 'self' and the page's own host over ws: or wss:, as the page was served (http or https): browsers do not
 * all count a websocket to the same host as 'self'. Never bare `ws:`/`wss:`, which would let a
 * script in the page open a socket to any host.
 */
const ownOrigins =
  (servedOverHttps: boolean) =>
  (req: IncomingMessage): string => {
    const request = req as Request;
    const host = request.get('host') ?? '';
    if (!plainHost.test(host)) return "'self'";
    return `'self' ${servedOverHttps || request.secure ? 'wss' : 'ws'}://${host}`;
  };

/** The `/api/v1` surface (docs/api.md), and the built web client for every other GET. */
export const createApp = (deps: AppDeps): Express => {
  const app = express();
  app.disable('x-powered-by');
  // API answers are `no-store`; hashing every body for an ETag would be work for nothing.
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxyHops);
  app.use(observeRequests(deps));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          // WebAssembly may be compiled (Argon2id for the key backup's passphrase); eval stays barred.
          'script-src': ["'self'", "'wasm-unsafe-eval'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          // Only this app's own origin: an injected script cannot post keys or text elsewhere.
          'connect-src': [ownOrigins(deps.servedOverHttps ?? false)],
          'style-src': ["'self'", "'unsafe-inline'"],
          // helmet adds this by default; over plain HTTP it would move every script to https.
          'upgrade-insecure-requests': deps.servedOverHttps ? [] : null,
        },
      },
      strictTransportSecurity: deps.servedOverHttps ? { maxAge: 31_536_000 } : false,
    }),
  );

  const services = serviceClients({
    serve: deps.rpc.serve.bind(deps.rpc),
    call: (service, operation, payload, options) =>
      deps.rpc.call(service, operation, payload, { timeoutMs: deps.rpcTimeoutMs, ...options }),
  });
  const auth = requireAuth(deps.verifyAccessToken);
  const writes = writeLimits(deps.rateLimits, deps.writeBudgets, deps.log);

  const api = express.Router();
  api.use(express.json({ limit: limits.jsonBodyMaxBytes }));
  // Form posts without a file (load tools, plain HTML forms) are accepted where multipart is.
  api.use(express.urlencoded({ extended: false, limit: limits.jsonBodyMaxBytes, parameterLimit: 20 }));
  api.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  api.use('/user', userRoutes({ services, blobs: deps.blobs, ids: deps.ids, requireAuth: auth, writes }));
  api.use('/users', auth, keyLogRoutes({ services }));
  api.use('/chat', auth, writes.byUser, chatRoutes({ services, blobs: deps.blobs, ids: deps.ids }));
  api.use('/message', auth, writes.byUser, messageRoutes({ services, reportBudget: writes.reports }));
  api.use(
    '/operator',
    auth,
    writes.byUser,
    operatorRoutes({ services, role: operatorRole(services, deps.operators ?? []) }),
  );
  api.use('/attachments', auth, writes.byUser, attachmentRoutes({ services, blobs: deps.blobs }));
  api.use('/push', auth, writes.byUser, pushRoutes({ services }));
  api.use(
    '/calls',
    auth,
    callRoutes({
      turn: deps.turn,
      budget: deps.rateLimits.limit(turnCredentialBudget),
      now: () => Date.now(),
      log: deps.log,
    }),
  );
  api.use('/media', mediaRoutes({ blobs: deps.blobs }));
  api.use(notFound);
  app.use('/api/v1', api);
  app.use('/api', notFound);

  if (deps.webDist && existsSync(path.join(deps.webDist, 'index.html'))) {
    const webDist = deps.webDist;
    app.use(express.static(webDist, { index: false, maxAge: '1h' }));
    // Client-side routes (/all-chats, /profile, ...) all load the single page.
    app.get(/^\/(?!socket\.io\/).*/, (_req, res) => res.sendFile(path.join(webDist, 'index.html')));
  }
  app.use(notFound);
  app.use(problemDetails(deps.log, deps.tracing));
  return app;
};
