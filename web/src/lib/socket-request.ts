import type { Ack, ClientToServerEvents } from '@veil/contracts';
import { isApiError, type ApiError } from './api-error.ts';
import { getSocket } from './realtime.ts';

/** How long a request waits for the server's answer before it counts as unanswered. */
export const socketRequestTimeoutMs = 10_000;

/** The requests the app makes over its socket; the event map says what each sends and its ack carries. */
type RequestEvent =
  'send message' | 'edit message' | 'delete message' | 'react to message' | 'remove reaction';
type PayloadOf<E extends RequestEvent> = Parameters<ClientToServerEvents[E]>[0];
type AnswerOf<E extends RequestEvent> =
  Parameters<ClientToServerEvents[E]>[1] extends Ack<infer T> ? T : never;
type AckReply<T> = { ok: true; data: T } | { ok: false; error: { code: string; message: string } };

/**
 * One request over the app's socket, answered by its ack. Resolves `undefined` when the socket
 * is not connected, so the caller goes over HTTP instead (an emit on a disconnected socket would
 * wait in Socket.IO's buffer until it reconnects). A refusal throws an ApiError with the server's
 * code and message, as an HTTP refusal does; no answer in time throws `noAnswer()`.
 */
export const requestOverSocket = async <E extends RequestEvent>(
  event: E,
  payload: PayloadOf<E>,
): Promise<AnswerOf<E> | undefined> => {
  const socket = getSocket();
  if (!socket.connected) return undefined;
  // The event map types each event's ack; this function's generic event needs it spelled out.
  const withTimeout = socket.timeout(socketRequestTimeoutMs);
  const emit = withTimeout.emitWithAck.bind(withTimeout) as (
    event: E,
    payload: PayloadOf<E>,
  ) => Promise<AckReply<AnswerOf<E>>>;
  let reply;
  try {
    reply = await emit(event, payload);
  } catch {
    throw noAnswer();
  }
  if (reply.ok) return reply.data;
  const error: ApiError = {
    kind: 'unsuccessful',
    status: null,
    statusText: '',
    message: reply.error.message,
    code: reply.error.code,
  };
  throw error;
};

/** No answer in time: the request may or may not have been carried out. */
export const noAnswer = (): ApiError => ({
  kind: 'network',
  status: null,
  statusText: '',
  message: 'No answer from the server; check your connection',
});

/** Refusals are `unsuccessful`; only a request that got no answer is a `network` failure. */
export const isNoAnswer = (failure: unknown): boolean => isApiError(failure) && failure.kind === 'network';
