import {
  DomainError,
  parseWith,
  sendCommandOf,
  socketSendSchema,
  type SentReceipt,
  type messageRpc,
} from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { Tracing } from '@veil/ports';
import { answerRequest, asAck, type RequestHandlerDeps } from './acks.ts';
import type { RealtimeMetrics, SendResult } from './realtime-metrics.ts';
import type { SendingSockets } from './sending-sockets.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'send'>;

export interface SendingDeps extends RequestHandlerDeps<MessageClient> {
  tracing: Pick<Tracing, 'run'>;
  metrics: Pick<RealtimeMetrics, 'sent'>;
  sendingSockets: Pick<SendingSockets, 'note' | 'take'>;
}

/** Refused: the client's request was wrong or not allowed. Failed: Veil could not serve it. */
const resultOf = (error: unknown): SendResult =>
  error instanceof DomainError && error.code !== 'INTERNAL' && error.code !== 'UNAVAILABLE'
    ? 'refused'
    : 'failed';

/**
 * `send message` → the message service's `send`, the same command the HTTP routes call: it
 * checks membership and the key map, persists MessageSent, and the fan-out delivers it like any
 * other. The sender is the token's user; the payload names only the chat. A send without an ack
 * is refused: a client that cannot learn whether its message was stored should use HTTP. The ack
 * carries only what the sender cannot know (id, position, time): encoding the whole message a
 * second time, beside the delivery, was about 3 % of the process in profiles (BENCHMARKS.md).
 * Why this exists beside the HTTP calls: docs/realtime.md, "Sending over the socket".
 * Each send is a trace of its own, as an HTTP request is at the API gateway.
 */
export const registerSending = (deps: SendingDeps): void => {
  const { socket, messages, limiter, now, log, tracing, metrics, sendingSockets } = deps;
  const userId = socket.data.userId;

  const send = async (payload: unknown, rawAck: unknown): Promise<SentReceipt> => {
    if (!asAck(rawAck)) {
      throw new DomainError('VALIDATION_FAILED', 'send message needs an acknowledgement callback');
    }
    if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many messages; slow down');
    const body = parseWith(socketSendSchema, payload);
    const { clientMessageId } = body;
    // The fan-out leaves this socket out of `message sent`: the ack tells it.
    if (clientMessageId) sendingSockets.note(userId, clientMessageId, socket.id);
    const sent = messages.send(sendCommandOf(userId, body.chatId, body.encryptedKeys, body));
    // Refused: no fan-out is coming for it.
    const { message } = await sent.catch((error: unknown) => {
      sendingSockets.take(userId, clientMessageId);
      throw error;
    });
    return { _id: message._id, seq: message.seq, createdAt: message.createdAt };
  };

  const counted = async (payload: unknown, rawAck: unknown): Promise<SentReceipt> => {
    try {
      const receipt = await send(payload, rawAck);
      metrics.sent('stored');
      return receipt;
    } catch (error) {
      metrics.sent(resultOf(error));
      throw error;
    }
  };

  socket.on('send message', (payload, rawAck) =>
    tracing.run(undefined, () => answerRequest(socket, rawAck, log, () => counted(payload, rawAck))),
  );
};
