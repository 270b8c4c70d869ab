import type { Request, RequestHandler } from 'express';
import type { Logger, Metrics, Tracing } from '@veil/ports';
import type { RequestSummaryRecorder } from './request-summary.ts';

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route a request matched, as its template (`/api/v1/chat/getchatbyid/:chatId`), never the
 * raw URL, whose ids would make a series per chat. The matched route's path is the URL's tail;
 * what precedes it is where its router is mounted. Requests that matched no route (refused
 * before one, or unknown) are `unmatched`; everything outside the API is the web client.
 */
export const routeTemplateOf = (req: Request): string => {
  const routePath: unknown = req.route?.path;
  const isApi = req.originalUrl.startsWith('/api/');
  if (typeof routePath !== 'string') return isApi ? 'unmatched' : 'web';
  const urlSegments = (req.originalUrl.split('?')[0] ?? '').split('/').filter(Boolean);
  const routeSegments = routePath.split('/').filter(Boolean);
  const mount = urlSegments.slice(0, Math.max(0, urlSegments.length - routeSegments.length));
  return `/${[...mount, ...routeSegments].join('/')}`;
};

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Every request runs inside a trace, the caller's (`traceparent`) or a new one, so the lines
 * logged while serving it, the RPC calls it makes and the events it causes carry one trace id.
 * When the response is sent: the duration histogram by method, route template and status, one
 * log line at `debug`, and the request counted in the per-minute summary logged at `info`.
 */
export const observeRequests = (deps: {
  metrics: Metrics;
  tracing: Tracing;
  log: Logger;
  requestSummary: RequestSummaryRecorder;
}): RequestHandler => {
  const duration = deps.metrics.histogram<'method' | 'route' | 'status'>({
    name: 'veil_http_request_duration_seconds',
    help: 'API gateway: time to answer a request, by method, route template and status (its _count counts requests)',
    labelNames: ['method', 'route', 'status'],
  });
  return (req, res, next) => {
    const started = performance.now();
    deps.tracing.run(header(req.headers.traceparent), () => {
      const traceId = deps.tracing.traceId();
      res.once('finish', () => {
        const seconds = (performance.now() - started) / 1000;
        const method = knownMethods.has(req.method) ? req.method : 'OTHER';
        const route = routeTemplateOf(req);
        const status = res.statusCode;
        const durationMs = Math.round(seconds * 10_000) / 10;
        duration.observe({ method, route, status: String(status) }, seconds);
        deps.requestSummary.record(status, durationMs);
        deps.log.debug({ traceId, method, route, status, durationMs }, 'request handled');
      });
      next();
    });
  };
};
