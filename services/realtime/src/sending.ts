import {
  DomainError,
  parseWith,
  socketSendSchema,
  type MessageView,
  type messageRpc,
} from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { Logger } from '@veil/ports';
import { asAck, toErrorBody } from './acks.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { RealtimeSocket } from './socket-types.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'send'>;

/**
 * `send message` → the message service's `send`, the same command the HTTP routes call: it
 * checks membership and the key map, persists MessageSent, and the fan-out delivers it like any
 * other. The sender is the token's user; the payload names only the chat. A send without an ack
 * is refused: a client that cannot learn whether its message was stored should use HTTP.
 * Why this exists beside the spec's HTTP calls: docs/realtime.md, "Sending over the socket".
 */
export const registerSending = (deps: {
  socket: RealtimeSocket;
  messages: MessageClient;
  limiter: RateLimiter;
  now: () => number;
  log: Logger;
}): void => {
  const { socket, messages, limiter, now, log } = deps;
  const userId = socket.data.userId;

  socket.on('send message', (payload, rawAck) => {
    const ack = asAck<{ message: MessageView }>(rawAck);
    void (async () => {
      try {
        if (!ack) throw new DomainError('VALIDATION_FAILED', 'send message needs an acknowledgement callback');
        if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many messages; slow down');
        const { chatId, encryptedMessage, iv, encryptedKeys, replyTo } = parseWith(socketSendSchema, payload);
        const { message } = await messages.send({
          userId,
          chatId,
          content: encryptedMessage,
          iv,
          encryptedKeys,
          replyTo: replyTo ?? null,
        });
        ack({ ok: true, data: { message } });
      } catch (error) {
        const body = toErrorBody(error, log);
        if (ack) ack({ ok: false, error: body });
        else if (socket.connected) socket.emit('error', body);
      }
    })();
  });
};
