import { DomainError, type Ack, type ErrorBody } from '@veil/contracts';
import type { Logger } from '@veil/ports';
import type { RateLimiter } from './rate-limit.ts';
import type { RealtimeSocket } from './socket-types.ts';

/** What a handler of one kind of client request needs: the socket, the service it calls, its budget. */
export interface RequestHandlerDeps<Service> {
  socket: RealtimeSocket;
  messages: Service;
  limiter: RateLimiter;
  now: () => number;
  log: Logger;
}

/** Any failure as the wire's error body; unknown errors are logged and never leak their text. */
export const toErrorBody = (error: unknown, log: Logger): ErrorBody => {
  if (error instanceof DomainError) return error.toBody();
  log.error({ err: error }, 'unexpected error in a realtime handler');
  return { code: 'INTERNAL', message: 'Something went wrong' };
};

/** Clients may or may not pass an ack; anything that is not a function is ignored. */
export const asAck = <T>(value: unknown): Ack<T> | undefined =>
  typeof value === 'function' ? (value as Ack<T>) : undefined;

/**
 * Runs the work behind a client's request and answers it: the ack with `{ok: true, data}` or
 * `{ok: false, error}`, or, for a client that passed no ack, a failure as an `error` event.
 */
export const answerRequest = <T>(
  socket: RealtimeSocket,
  rawAck: unknown,
  log: Logger,
  work: () => Promise<T>,
): void => {
  // A client may omit the ack (or send a non-function in its place): only call a real one.
  const ack = asAck<T>(rawAck);
  work().then(
    (data) => ack?.({ ok: true, data }),
    (error: unknown) => {
      const body = toErrorBody(error, log);
      if (ack) ack({ ok: false, error: body });
      else if (socket.connected) socket.emit('error', body);
    },
  );
};
