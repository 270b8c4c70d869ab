import {
  headers,
  NoRespondersError,
  TimeoutError,
  type Subscription as NatsSubscription,
} from '@nats-io/nats-core';
import { DomainError, isErrorCode, rpcSubject } from '@veil/contracts';
import type { Logger, Rpc, RpcReply, Tracing } from '@veil/ports';
import { untilConnected, type NatsConnection } from './connection.ts';

const withHeader = (name: string, value: string) => {
  const h = headers();
  h.set(name, value);
  return h;
};

/**
 * Request/reply over core NATS. Each operation is a subject `<prefix>.rpc.<service>.<op>` served
 * with the service name as queue group, so replicas share the load. Every request gets an
 * answer: a DomainError keeps its code, anything else becomes INTERNAL (and is logged).
 * A call made inside a trace carries its `traceparent` header, and the handler runs inside it.
 */
export const createNatsRpc = (options: {
  connection: NatsConnection;
  prefix: string;
  log: Logger;
  tracing?: Pick<Tracing, 'run' | 'traceparent'>;
}): Rpc => {
  const { connection, prefix, log, tracing } = options;
  const traceHeader = 'traceparent';
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  return {
    async serve(service, handlers) {
      const subscriptions: NatsSubscription[] = Object.entries(handlers).map(([operation, handler]) =>
        connection.subscribe(rpcSubject(prefix, service, operation), {
          queue: service,
          callback: (error, message) => {
            if (error) {
              log.error({ err: error, service, operation }, 'rpc subscription error');
              return;
            }
            const answer = async () => {
              let reply: RpcReply;
              try {
                const payload = message.data.length ? JSON.parse(decoder.decode(message.data)) : null;
                const data = await handler(payload);
                reply = { ok: true, data: data === undefined ? null : data };
              } catch (failure) {
                if (failure instanceof DomainError) reply = { ok: false, error: failure.toBody() };
                else {
                  log.error({ err: failure, service, operation }, 'rpc handler failed');
                  reply = { ok: false, error: { code: 'INTERNAL', message: 'Internal error' } };
                }
              }
              message.respond(encoder.encode(JSON.stringify(reply)));
            };
            // The caller's trace, when it sent one, covers everything the handler logs.
            const parent = message.headers?.get(traceHeader);
            void (parent && tracing ? tracing.run(parent, answer) : answer());
          },
        }),
      );
      await connection.flush();
      return {
        async stop() {
          // Drain: stop taking new requests, finish (and answer) the ones in flight.
          await Promise.all(subscriptions.map((s) => s.drain()));
        },
      };
    },

    async call(service, operation, payload, callOptions = {}) {
      let raw: Uint8Array;
      const timeoutMs = callOptions.timeoutMs ?? 5_000;
      const deadline = Date.now() + timeoutMs;
      try {
        await untilConnected(connection, timeoutMs);
        const parent = tracing?.traceparent();
        const reply = await connection.request(
          rpcSubject(prefix, service, operation),
          JSON.stringify(payload ?? null),
          {
            timeout: Math.max(1, deadline - Date.now()),
            ...(parent && { headers: withHeader(traceHeader, parent) }),
          },
        );
        raw = reply.data;
      } catch (error) {
        const cause = (error as Error).cause ?? error;
        if (error instanceof NoRespondersError || cause instanceof NoRespondersError) {
          throw new DomainError('UNAVAILABLE', `Service ${service} is not available`);
        }
        if (error instanceof TimeoutError || cause instanceof TimeoutError) {
          throw new DomainError('UNAVAILABLE', `Service ${service} did not answer in time`);
        }
        throw new DomainError('UNAVAILABLE', `Service ${service} could not be reached`);
      }
      const reply = JSON.parse(decoder.decode(raw)) as RpcReply;
      if (reply.ok) return reply.data;
      throw new DomainError(
        isErrorCode(reply.error.code) ? reply.error.code : 'INTERNAL',
        reply.error.message,
      );
    },
  };
};
