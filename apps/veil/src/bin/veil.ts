import { loadConfigOrExit } from '../config.ts';
import { startFromConfig } from '../start.ts';

/**
 * `veil`: runs the services named by VEIL_SERVICES (default: all) in this process.
 * With no configuration at all this is the embedded single-process app on :8080.
 */
const main = async () => {
  const veil = await startFromConfig(loadConfigOrExit());

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    veil.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      veil.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    await veil.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Announced once a signal would shut down cleanly: whoever waits for this line may stop it at once.
  veil.log.info({ services: veil.services }, `Veil is running on ${veil.url}`);
};

main().catch((error: unknown) => {
  console.error('Veil failed to start:', error);
  process.exit(1);
});
