import { loadConfigOrExit } from '../config.ts';
import { startFromConfig } from '../start.ts';

/**
 * `veil`: runs the services named by VEIL_SERVICES (default: all) in this process.
 * With no configuration at all this is the embedded single-process app on :8080.
 */
const main = async () => {
  const veil = await startFromConfig(loadConfigOrExit());
  console.log(`Veil is running (${veil.services.join(', ')}) on ${veil.url}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    const timer = setTimeout(() => {
      console.error('Shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    await veil.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
};

main().catch((error: unknown) => {
  console.error('Veil failed to start:', error);
  process.exit(1);
});
