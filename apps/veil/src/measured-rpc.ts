import { DomainError } from '@veil/contracts';
import type { Logger, Metrics, Rpc, RpcHandler } from '@veil/ports';

/**
 * The Rpc port with the caller's view measured: how long each call took and how it failed, by
 * service and operation (both come from the contracts, so the label sets stay small). Served
 * calls are logged at debug level, inside the caller's trace, which the transport restores.
 */
export const measureRpc = (rpc: Rpc, metrics: Metrics, log: Logger): Rpc => {
  const duration = metrics.histogram<'service' | 'operation' | 'outcome'>({
    name: 'veil_rpc_client_duration_seconds',
    help: 'RPC calls as their callers see them: time until the reply, by outcome (ok or error)',
    labelNames: ['service', 'operation', 'outcome'],
  });
  const errors = metrics.counter<'service' | 'operation' | 'code'>({
    name: 'veil_rpc_client_errors_total',
    help: 'RPC calls that failed, by error code (UNAVAILABLE when no replica answered in time)',
    labelNames: ['service', 'operation', 'code'],
  });

  const handled = (service: string, operation: string, handler: RpcHandler): RpcHandler => {
    const served = log.child({ service });
    return async (payload) => {
      const started = performance.now();
      let code = 'OK';
      try {
        return await handler(payload);
      } catch (error) {
        code = error instanceof DomainError ? error.code : 'INTERNAL';
        throw error;
      } finally {
        const durationMs = Math.round((performance.now() - started) * 10) / 10;
        served.debug({ operation, code, durationMs }, 'rpc handled');
      }
    };
  };

  return {
    ...(rpc.handsOverValues && { handsOverValues: true }),
    serve: (service, handlers) =>
      rpc.serve(
        service,
        Object.fromEntries(
          Object.entries(handlers).map(([operation, handler]) => [
            operation,
            handled(service, operation, handler),
          ]),
        ),
      ),
    async call(service, operation, payload, options) {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const data = await rpc.call(service, operation, payload, options);
        duration.observe({ service, operation, outcome: 'ok' }, seconds());
        return data;
      } catch (error) {
        duration.observe({ service, operation, outcome: 'error' }, seconds());
        errors.inc({ service, operation, code: error instanceof DomainError ? error.code : 'INTERNAL' });
        throw error;
      }
    },
  };
};
