import { byContext, checkpointCollection, resetProjection, startProjection } from '@veil/kernel';
import type { Logger } from '@veil/ports';
import { createStores, readModelFile } from './adapters.ts';
import { dataOwners, type ServiceName, type VeilConfig } from './config.ts';
import { createProgress, type ProgressOutput } from './progress.ts';
import { registry } from './services.ts';

/**
 * `npm run rebuild`: drops the read models of the given services (default: every service that
 * has some) and builds them again from the event log, showing progress. In embedded mode the
 * read models share the log's file: their collections and checkpoints are emptied and built
 * again in it, and the file's lock refuses a rebuild while Veil runs. A SQLite read-model file
 * of its own (NATS without MongoDB) starts anew when every service is rebuilt, which is also the
 * way out of a damaged one or one from a newer version. With MONGODB_URL it rebuilds the named
 * services' collections in MongoDB (stop those services first).
 */
export const rebuildReadModels = async (options: {
  config: VeilConfig;
  services?: readonly ServiceName[];
  log: Logger;
  out: ProgressOutput;
}) => {
  const { config, log, out } = options;
  const services = options.services ?? dataOwners;
  const unknown = services.filter((name) => !dataOwners.includes(name));
  if (unknown.length) {
    throw new Error(
      `No read models in ${unknown.join(', ')}; services with read models: ${dataOwners.join(', ')}`,
    );
  }
  if (config.NATS_URL && !config.MONGODB_URL && services.length === dataOwners.length) {
    const { removeSqliteReadStore } = await import('@veil/readstore-sqlite');
    removeSqliteReadStore(readModelFile(config));
  }
  const stores = await createStores(config, log);
  const { readStore } = stores;
  try {
    // The lock on a read-model file of its own, as at start: never beside a running Veil.
    await readStore.collection(checkpointCollection);
    const bus = byContext(stores.bus);
    for (const name of services) {
      const openProjection = await registry[name].openProjection();
      if (!openProjection) throw new Error(`The ${name} service gives no projection to rebuild`);
      const given = stores.messageTimeline && { messageTimeline: stores.messageTimeline };
      for (const definition of [await openProjection(readStore, bus, given)].flat()) {
        await resetProjection(readStore, definition);
        let total = 0;
        for (const context of definition.contexts) total += await bus.headPosition(context);
        const progress = createProgress(out, `${name} (${definition.name})`, total);
        // Nothing appends during a rebuild: the projection follows the log to its head.
        const projection = await startProjection({ bus, readStore, log, definition });
        const applied = () =>
          definition.contexts.reduce((sum, context) => sum + projection.position(context), 0);
        const ticker = setInterval(() => progress.update(applied()), 100);
        try {
          await projection.catchUp(24 * 60 * 60 * 1000);
        } finally {
          clearInterval(ticker);
          await projection.stop();
        }
        progress.update(applied());
        progress.finish();
      }
    }
  } finally {
    await stores.close();
  }
};
