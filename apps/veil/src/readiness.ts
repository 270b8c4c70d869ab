import type { Rpc, RunningService } from '@veil/ports';

/**
 * Services report readiness over the bus: each process answers `health-<service>.ready` for the
 * services it runs once they have started (projections caught up, handlers serving). The
 * gateway's /readyz asks every service it forwards to, so a load balancer only sends traffic
 * to a gateway whose services can answer.
 */
const healthService = (service: string) => `health-${service}`;

export const serveReadiness = async (
  rpc: Rpc,
  services: string[],
  instanceId: string,
): Promise<RunningService> => {
  const handles = await Promise.all(
    services.map((service) =>
      rpc.serve(healthService(service), { ready: async () => ({ ready: true, instanceId }) }),
    ),
  );
  return { stop: async () => void (await Promise.all(handles.map((h) => h.stop()))) };
};

export const checkRemoteReadiness = (rpc: Rpc, services: string[], timeoutMs = 1_000) =>
  Promise.all(
    services.map(async (service) => {
      try {
        await rpc.call(healthService(service), 'ready', {}, { timeoutMs });
        return { service, ready: true };
      } catch {
        return { service, ready: false };
      }
    }),
  );
