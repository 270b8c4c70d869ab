import type { SentReceipt, SocketSendPayload } from '@veil/contracts';
import { getSocket } from './realtime.ts';
import { isNoAnswer, requestOverSocket } from './socket-request.ts';

/**
 * Sends a message to an existing chat over the app's socket (`send message`), which skips an
 * HTTP request per message; the server stores and delivers it exactly as it does an HTTP send.
 * Resolves `undefined` when the socket is not connected, so the caller sends over HTTP instead.
 * Failures are ApiErrors, so screens show them as they show HTTP failures. Success is the stored
 * message's id, position and time; the caller holds the rest. A send that gets no answer in time
 * is tried once more with the same `clientMessageId`, which the server stores once.
 */
export const sendOverSocket = async (payload: SocketSendPayload): Promise<SentReceipt | undefined> => {
  try {
    return await requestOverSocket('send message', payload);
  } catch (failure) {
    // No answer in time: the message may or may not be stored. Its clientMessageId makes one
    // more try safe (the server answers a repeat with the stored message); without it, or
    // without a connection, the user decides.
    if (!isNoAnswer(failure) || !payload.clientMessageId || !getSocket().connected) throw failure;
    return requestOverSocket('send message', payload);
  }
};
