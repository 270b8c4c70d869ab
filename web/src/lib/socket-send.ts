import type { SentReceipt, SocketSendPayload } from '@veil/contracts';
import type { ApiError } from './api-error.ts';
import { getSocket } from './realtime.ts';

/** How long a send waits for the server's answer before it is tried again (once) or reported as failed. */
export const socketSendTimeoutMs = 10_000;

/**
 * Sends a message to an existing chat over the app's socket (`send message`), which skips an
 * HTTP request per message; the server stores and delivers it exactly as it does an HTTP send.
 * Resolves `undefined` when the socket is not connected, so the caller sends over HTTP instead
 * (an emit on a disconnected socket would wait in Socket.IO's buffer until it reconnects).
 * Failures are ApiErrors, so screens show them as they show HTTP failures. Success is the stored
 * message's id, position and time; the caller holds the rest. A send that gets no answer in time
 * is tried once more with the same `clientMessageId`, which the server stores once.
 */
export const sendOverSocket = async (payload: SocketSendPayload): Promise<SentReceipt | undefined> => {
  const socket = getSocket();
  if (!socket.connected) return undefined;
  const attempt = () => socket.timeout(socketSendTimeoutMs).emitWithAck('send message', payload);
  let reply;
  try {
    reply = await attempt();
  } catch {
    // No answer in time: the message may or may not be stored. Its clientMessageId makes one
    // more try safe (the server answers a repeat with the stored message); without it, or
    // without a connection, the user decides.
    if (!payload.clientMessageId || !socket.connected) throw noAnswer();
    try {
      reply = await attempt();
    } catch {
      throw noAnswer();
    }
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

const noAnswer = (): ApiError => ({
  kind: 'network',
  status: null,
  statusText: '',
  message: 'No answer from the server; check your connection',
});
