import { loadConfig, type ServiceName } from './config.ts';
import type { Clock } from '@veil/ports';
import { startFromConfig, type RunningVeil } from './start.ts';

export {
  loadConfig,
  ConfigError,
  configVariableNames,
  serviceNames,
  type VeilConfig,
  type ServiceName,
} from './config.ts';
export { startFromConfig, defaultWebDist, type RunningVeil } from './start.ts';
export { veilNodeFlags } from './node-flags.ts';

export interface StartVeilOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  webDist?: string;
  services?: ServiceName[];
  /** Extra environment, as the process would get it (e.g. NATS_URL for the cluster adapters). */
  env?: Record<string, string>;
  /** The services' clock, for tests that cross a time limit without waiting. */
  clock?: Clock;
}

/** Starts Veil on loopback for tests and tools: embedded adapters unless `env` names real ones. */
export const startVeil = (options: StartVeilOptions): Promise<RunningVeil> =>
  startFromConfig(
    loadConfig({
      LOG_LEVEL: 'warn',
      ...options.env,
      HOST: '127.0.0.1',
      PORT: String(options.port ?? 0),
      DATA_DIR: options.dataDir,
      ...(options.webDist ? { WEB_DIST: options.webDist } : {}),
      ...(options.services ? { VEIL_SERVICES: options.services.join(',') } : {}),
    }),
    options.clock ? { clock: options.clock } : {},
  );
