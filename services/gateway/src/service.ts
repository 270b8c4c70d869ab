import type { StartService } from '@veil/ports';
import { createAccessTokenVerifier, followSessionRevocations } from '@veil/tokens';
import { createApp } from './app.ts';
import { createRequestSummary } from './middleware/request-summary.ts';
import { forwardRealtimeUpgrades } from './realtime-proxy.ts';
import type { GatewaySettings } from './settings.ts';

export type { GatewaySettings } from './settings.ts';

/** The API gateway: the HTTP surface (docs/api.md) over the services' RPC, and the web client. */
export const start: StartService<GatewaySettings> = async ({ ports, settings, http }) => {
  if (!http) throw new Error('The gateway needs an HTTP server');
  const log = ports.log.child({ service: 'gateway' });
  const revocations = await followSessionRevocations(ports.bus, log);
  const requestSummary = createRequestSummary(log);
  const app = createApp({
    rpc: ports.rpc,
    blobs: ports.blobs,
    rateLimits: ports.rateLimits,
    writeBudgets: settings.writeBudgets,
    ids: ports.ids,
    log,
    metrics: ports.metrics,
    tracing: ports.tracing,
    requestSummary,
    verifyAccessToken: await createAccessTokenVerifier(settings.accessTokenPublicJwk, {
      isRevoked: revocations.isRevoked,
    }),
    rpcTimeoutMs: settings.rpcTimeoutMs,
    trustProxyHops: settings.trustProxyHops,
    servedOverHttps: settings.servedOverHttps,
    operators: settings.operators ?? [],
    ...(settings.webDist ? { webDist: settings.webDist } : {}),
    ...(settings.turn ? { turn: settings.turn } : {}),
  });
  http.setRequestHandler(app);
  const stopProxy = settings.realtimeUpstreams?.length
    ? forwardRealtimeUpgrades(http.server, settings.realtimeUpstreams, log)
    : () => undefined;
  return {
    async stop() {
      stopProxy();
      requestSummary.stop();
      await revocations.stop();
    },
  };
};
