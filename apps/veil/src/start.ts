import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock, Logger, Ports, RunningService } from '@veil/ports';
import type { ServiceName, VeilConfig } from './config.ts';
import { createPorts } from './adapters.ts';
import { createHttpHost } from './http-host.ts';
import { loadTokenKeys, loadVapidKeys } from './keys.ts';
import { createLogger } from './logger.ts';
import { createMetricsRegistry } from './metrics.ts';
import { checkRemoteReadiness, serveReadiness } from './readiness.ts';
import { registry, startOrder } from './services.ts';
import { createTracing } from './tracing.ts';

export interface RunningVeil {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  services: ServiceName[];
  /** The process's ports, for tests and tools that inspect what was stored. */
  ports: Ports;
  /** The process's logger (LOG_LEVEL, LOG_FORMAT), for what its entry point reports. */
  log: Logger;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const defaultWebDist = path.join(repoRoot, 'web', 'dist');

/**
 * Starts the services named in `config.VEIL_SERVICES` in this process, on the adapters the
 * config selects, behind one HTTP port. `stop()` shuts down in reverse: the HTTP edge first
 * (no new work), then services (in-flight work finishes), then adapters (drain, flush).
 */
export const startFromConfig = async (
  config: VeilConfig,
  overrides: { clock?: Clock } = {},
): Promise<RunningVeil> => {
  const tracing = createTracing();
  const log = createLogger(config, tracing);
  const metricsRegistry = createMetricsRegistry(log);
  const wanted = startOrder.filter((name) => config.VEIL_SERVICES.includes(name));
  const owned = await createPorts(config, { log, metrics: metricsRegistry.metrics, tracing, ...overrides });
  const running: { name: ServiceName; service: RunningService }[] = [];
  let started = false;
  let readiness: RunningService | null = null;

  const runsGateway = wanted.includes('gateway');
  const http = createHttpHost(
    async () => {
      if (!started) return { ready: false, detail: 'starting' };
      if (!runsGateway) return { ready: true, detail: wanted };
      const remote = await checkRemoteReadiness(owned.ports.rpc, ['user', 'auth', 'chat', 'message']);
      return { ready: remote.every((r) => r.ready), detail: remote };
    },
    runsGateway,
    metricsRegistry,
  );
  const port = await http.listen(config.PORT, config.HOST);
  const webDist = config.WEB_DIST ?? (existsSync(defaultWebDist) ? defaultWebDist : undefined);

  const stopAll = async () => {
    await http.close();
    await readiness?.stop();
    for (const { name, service } of running.reverse()) {
      await service.stop().catch((err: unknown) => log.error({ err, service: name }, 'error while stopping'));
    }
    await owned.close();
  };

  try {
    const keys = {
      ...(await loadTokenKeys(config)),
      ...(wanted.includes('message') && { vapid: await loadVapidKeys(config) }),
    };
    for (const name of wanted) {
      const entry = registry[name];
      const service = await entry.start(
        { config, keys, port, webDist },
        { ports: owned.ports, ...(entry.http ? { http } : {}) },
      );
      running.push({ name, service });
      log.info({ service: name }, 'service started');
    }
    readiness = await serveReadiness(owned.ports.rpc, wanted, config.INSTANCE_ID);
    started = true;
  } catch (error) {
    await stopAll();
    throw error;
  }

  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return { url: `http://${host}:${port}`, port, services: wanted, ports: owned.ports, log, stop: stopAll };
};
