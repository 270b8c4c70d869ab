import { DomainError, isErrorCode } from '@veil/contracts';
import type { Logger, Rpc, RpcHandler, RpcReply } from '@veil/ports';

/**
 * Request/reply in process with the wire's semantics: payloads and replies go through JSON (so
 * nothing works here that would break over NATS), servers of one service share calls round
 * robin like a queue group, a call with no server fails at once, and a slow one times out.
 */
export const createEmbeddedRpc = ({ log }: { log: Logger }): Rpc => {
  const servers = new Map<string, Record<string, RpcHandler>[]>();
  let turn = 0;

  const reply = async (handler: RpcHandler, payload: string): Promise<string> => {
    let result: RpcReply;
    try {
      const data = await handler(JSON.parse(payload));
      result = { ok: true, data: data === undefined ? null : data };
    } catch (error) {
      if (error instanceof DomainError) {
        result = { ok: false, error: error.toBody() };
      } else {
        log.error({ err: error }, 'rpc handler failed');
        result = { ok: false, error: { code: 'INTERNAL', message: 'Internal error' } };
      }
    }
    return JSON.stringify(result);
  };

  return {
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
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DomainError('UNAVAILABLE', `Service ${service} did not answer in time`)),
          timeoutMs,
        );
      });
      try {
        const raw = await Promise.race([reply(handler, JSON.stringify(payload ?? null)), timeout]);
        const result = JSON.parse(raw) as RpcReply;
        if (result.ok) return result.data;
        throw new DomainError(
          isErrorCode(result.error.code) ? result.error.code : 'INTERNAL',
          result.error.message,
        );
      } finally {
        clearTimeout(timer);
      }
    },
  };
};
