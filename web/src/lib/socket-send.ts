import type { SentReceipt, SocketSendPayload } from '@veil/contracts';
import type { ApiError } from './api-error.ts';
import { getSocket } from './realtime.ts';

/** How long a send waits for the server's answer before it is reported as failed. */
export const socketSendTimeoutMs = 10_000;

/**
 * Sends a message to an existing chat over the app's socket (`send message`), which skips an
 * HTTP request per message; the server stores and delivers it exactly as it does an HTTP send.
 * Resolves `undefined` when the socket is not connected, so the caller sends over HTTP instead
 * (an emit on a disconnected socket would wait in Socket.IO's buffer until it reconnects).
 * Failures are ApiErrors, so screens show them as they show HTTP failures. Success is the stored
 * message's id, position and time; the caller holds the rest.
 */
export const sendOverSocket = async (payload: SocketSendPayload): Promise<SentReceipt | undefined> => {
  const socket = getSocket();
  if (!socket.connected) return undefined;
  let reply;
  try {
    reply = await socket.timeout(socketSendTimeoutMs).emitWithAck('send message', payload);
  } catch {
    const error: ApiError = {
      kind: 'network',
      status: null,
      statusText: '',
      message: 'No answer from the server; check your connection',
    };
    throw error;
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
