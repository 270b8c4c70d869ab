import type { RpcContract, RpcService } from '@veil/contracts';
import type { Ports, RunningService } from '@veil/ports';
import { startProjection, type ProjectionDefinition, type RunningProjection } from './projection.ts';
import { measureProjection } from './projection-metrics.ts';
import { serveRpc, type RpcImplementation } from './rpc-client.ts';

/**
 * The shape of every data-owning service: its read model is caught up with the log before its
 * RPC handlers start answering (so a restarted replica never serves stale reads), its lag is
 * exposed as a metric, and stopping takes the handlers down before the projection.
 */
export const startProjectedRpcService = async <C extends RpcContract>(
  ports: Ports,
  options: {
    contract: RpcService<C>;
    projection: ProjectionDefinition;
    handlers: (projection: RunningProjection) => RpcImplementation<C>;
    /** Releases what the service opened itself (clients, timers), after everything else. */
    onStop?: () => Promise<void>;
  },
): Promise<RunningService> => {
  const log = ports.log.child({ service: options.contract.name });
  // The metrics read the projection's positions, and the projection reports parked events to
  // them: the metrics come first and find the projection here once it has started.
  const started: { projection?: RunningProjection } = {};
  const measured = measureProjection(ports, options.projection, {
    position: (context) => started.projection?.position(context) ?? 0,
  });
  const projection = await startProjection({
    bus: ports.bus,
    readStore: ports.readStore,
    log,
    definition: options.projection,
    onParked: (parked) => measured.parked(parked.context),
  });
  started.projection = projection;
  await projection.catchUp();
  const rpc = await serveRpc(ports.rpc, options.contract, options.handlers(projection));
  return {
    async stop() {
      await rpc.stop();
      await projection.stop();
      measured.stop();
      await options.onStop?.();
    },
  };
};
