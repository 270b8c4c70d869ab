import { loadConfigOrExit, serviceNames, type ServiceName } from '../config.ts';
import { createLogger } from '../logger.ts';
import { rebuildReadModels } from '../rebuild.ts';

/**
 * `npm run rebuild [-- <service>...]`: rebuilds the read models from the event log, with the
 * same configuration as `npm start` (DATA_DIR; NATS_URL and MONGODB_URL in cluster mode).
 * Without service names, every service's; Veil must not be running on the same data meanwhile.
 */
const main = async () => {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(serviceNames as readonly string[]).includes(name));
  if (unknown.length) {
    console.error(`Unknown service ${unknown.join(', ')}; services: ${serviceNames.join(', ')}`);
    process.exit(2);
  }
  const config = loadConfigOrExit();
  // Warnings and errors only: the progress display is the output.
  const log = createLogger({ ...config, LOG_LEVEL: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const where = config.MONGODB_URL ? `MongoDB (${config.MONGODB_DB})` : config.dataDir;
  const from = config.NATS_URL ? 'NATS' : `${config.dataDir}/events`;
  console.log(`Rebuilding the read models in ${where} from the event log in ${from}`);
  const started = performance.now();
  await rebuildReadModels({
    config,
    log,
    out: process.stdout,
    ...(wanted.length ? { services: wanted as ServiceName[] } : {}),
  });
  console.log(`Read models rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

main().catch((error: unknown) => {
  console.error(`Rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
