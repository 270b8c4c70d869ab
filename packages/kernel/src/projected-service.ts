import type { RpcContract, RpcService } from '@veil/contracts';
import type { Ports, RunningService } from '@veil/ports';
import type { ProjectionDefinition, RunningProjection } from './projection.ts';
import { startProjection } from './start-projection.ts';
import { measureProjection } from './projection-metrics.ts';
import { serveRpc, type RpcImplementation } from './rpc-client.ts';

/** Starts one projection with its metrics, caught up with the log. */
const startMeasured = async (ports: Ports, log: Ports['log'], definition: ProjectionDefinition) => {
  // The metrics read the projection's positions, and the projection reports parked events to
  // them: the metrics come first and find the projection here once it has started.
  const started: { projection?: RunningProjection } = {};
  const measured = measureProjection(ports, definition, {
    position: (context) => started.projection?.position(context) ?? 0,
  });
  const projection = await startProjection({
    bus: ports.bus,
    readStore: ports.readStore,
    log,
    definition,
    onParked: (parked) => measured.parked(parked.context),
    ...(ports.inlineProjections && { inline: ports.inlineProjections }),
  });
  started.projection = projection;
  await projection.catchUp();
  return {
    projection,
    async stop() {
      await projection.stop();
      measured.stop();
    },
  };
};

/**
 * The shape of every data-owning service: its read models are caught up with the log before its
 * RPC handlers start answering (so a restarted replica never serves stale reads), their lag is
 * exposed as a metric, and stopping takes the handlers down before the projections.
 *
 * A service may keep more than one projection (`companions`): each has its own checkpoint, so
 * one added later is built from the whole log on the first start that knows it, while the
 * others resume where they stopped.
 */
export const startProjectedRpcService = async <C extends RpcContract>(
  ports: Ports,
  options: {
    contract: RpcService<C>;
    projection: ProjectionDefinition;
    companions?: readonly ProjectionDefinition[];
    handlers: (
      projection: RunningProjection,
      companions: readonly RunningProjection[],
    ) => RpcImplementation<C>;
    /** Releases what the service opened itself (clients, timers), after everything else. */
    onStop?: () => Promise<void>;
  },
): Promise<RunningService> => {
  const log = ports.log.child({ service: options.contract.name });
  const main = await startMeasured(ports, log, options.projection);
  const companions: Awaited<ReturnType<typeof startMeasured>>[] = [];
  for (const definition of options.companions ?? [])
    companions.push(await startMeasured(ports, log, definition));
  const rpc = await serveRpc(
    ports.rpc,
    options.contract,
    options.handlers(
      main.projection,
      companions.map((companion) => companion.projection),
    ),
  );
  return {
    async stop() {
      await rpc.stop();
      for (const companion of companions) await companion.stop();
      await main.stop();
      await options.onStop?.();
    },
  };
};
