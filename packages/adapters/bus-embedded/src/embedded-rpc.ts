import { DomainError } from '@veil/contracts';
import type { Logger, Rpc, RpcHandler } from '@veil/ports';

/**
 * Request/reply in process: servers of one service share calls round robin like a queue group,
 * a call with no server fails at once, a slow one times out, and an error that is not a
 * DomainError reaches the caller only as INTERNAL (its details are logged, never sent).
 *
 * Payloads and replies are handed over as they are, not through JSON: serving code parses
 * each payload with its contract (a fresh object), and the embedded read models and events it
 * replies with are frozen. That a payload or reply survives the wire is proven where there is
 * one: the API suites run again over NATS. (The JSON round trip here cost a twentieth of a
 * send's CPU; see BENCHMARKS.md.)
 */
export const createEmbeddedRpc = ({ log }: { log: Logger }): Rpc => {
  const servers = new Map<string, Record<string, RpcHandler>[]>();
  let turn = 0;

  const reply = async (handler: RpcHandler, payload: unknown): Promise<unknown> => {
    try {
      const data = await handler(payload ?? null);
      return data === undefined ? null : data;
    } catch (error) {
      if (error instanceof DomainError) throw new DomainError(error.code, error.message);
      log.error({ err: error }, 'rpc handler failed');
      throw new DomainError('INTERNAL', 'Internal error');
    }
  };

  return {
    handsOverValues: true,
    async serve(service, handlers) {
      const list = servers.get(service) ?? [];
      list.push(handlers);
      servers.set(service, list);
      return {
        async stop() {
          const current = servers.get(service) ?? [];
          servers.set(
            service,
            current.filter((h) => h !== handlers),
          );
        },
      };
    },
    async call(service, operation, payload, options = {}) {
      const candidates = (servers.get(service) ?? []).filter((h) => operation in h);
      if (!candidates.length) throw new DomainError('UNAVAILABLE', `Service ${service} is not available`);
      const handler = candidates[turn++ % candidates.length]![operation]!;
      const timeoutMs = options.timeoutMs ?? 5_000;
      // One promise settled by whichever comes first, the reply or the timer: a race of two
      // promises per call was a measurable share of a send's allocations.
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new DomainError('UNAVAILABLE', `Service ${service} did not answer in time`)),
          timeoutMs,
        );
        reply(handler, payload).then(
          (data) => {
            clearTimeout(timer);
            resolve(data);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
    },
  };
};
