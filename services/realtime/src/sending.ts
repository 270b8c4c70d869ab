import { DomainError, parseWith, socketSendSchema, type SentReceipt, type messageRpc } from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import { answerRequest, asAck, type RequestHandlerDeps } from './acks.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'send'>;

/**
 * `send message` → the message service's `send`, the same command the HTTP routes call: it
 * checks membership and the key map, persists MessageSent, and the fan-out delivers it like any
 * other. The sender is the token's user; the payload names only the chat. A send without an ack
 * is refused: a client that cannot learn whether its message was stored should use HTTP. The ack
 * carries only what the sender cannot know (id, position, time): encoding the whole message a
 * second time, beside the delivery, was about 3 % of the process in profiles (BENCHMARKS.md).
 * Why this exists beside the spec's HTTP calls: docs/realtime.md, "Sending over the socket".
 */
export const registerSending = (deps: RequestHandlerDeps<MessageClient>): void => {
  const { socket, messages, limiter, now, log } = deps;
  const userId = socket.data.userId;

  socket.on('send message', (payload, rawAck) =>
    answerRequest(socket, rawAck, log, async (): Promise<SentReceipt> => {
      if (!asAck(rawAck)) {
        throw new DomainError('VALIDATION_FAILED', 'send message needs an acknowledgement callback');
      }
      if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many messages; slow down');
      const { chatId, encryptedMessage, iv, encryptedKeys, replyTo, clientMessageId } = parseWith(
        socketSendSchema,
        payload,
      );
      const { message } = await messages.send({
        userId,
        chatId,
        content: encryptedMessage,
        iv,
        encryptedKeys,
        replyTo: replyTo ?? null,
        ...(clientMessageId && { clientMessageId }),
      });
      return { _id: message._id, seq: message.seq, createdAt: message.createdAt };
    }),
  );
};
