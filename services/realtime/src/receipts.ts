import { DomainError, idSchema, type messageRpc } from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { Logger } from '@veil/ports';
import { asAck, toErrorBody } from './acks.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { RealtimeSocket } from './socket-types.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'markSeen'>;
type MarkSeenResult = Awaited<ReturnType<MessageClient['markSeen']>>;

/** The message service's own cap on one markSeen call. */
export const maxReportsPerBatch = 500;

/**
 * One report or a batch, validated. The reader is always the token's user: a report naming
 * someone else refuses the whole batch, so nothing changes.
 */
export const parseSeenReports = (
  payload: unknown,
  userId: string,
): { chatId: string; messageId: string }[] => {
  const items = Array.isArray(payload) ? payload : [payload];
  if (items.length > maxReportsPerBatch) {
    throw new DomainError('VALIDATION_FAILED', `At most ${maxReportsPerBatch} seen reports per batch`);
  }
  return items.map((item) => {
    if (typeof item !== 'object' || item === null) {
      throw new DomainError('VALIDATION_FAILED', 'A seen report is {chatId, messageId}');
    }
    const { chatId, messageId, userId: claimed } = item as Record<string, unknown>;
    if (!idSchema.safeParse(chatId).success || !idSchema.safeParse(messageId).success) {
      throw new DomainError('VALIDATION_FAILED', 'A seen report is {chatId, messageId}');
    }
    if (claimed !== undefined && claimed !== userId) {
      throw new DomainError('FORBIDDEN', 'You can only report messages seen by yourself');
    }
    return { chatId: chatId as string, messageId: messageId as string };
  });
};

/**
 * `message seen` → markSeen on the message service, which checks membership and persists
 * MessageSeen; the `update seen` emits come from the fan-out of those events, so every replica
 * and every reader's tab learns of it the same way. Answers the ack if there is one, otherwise
 * reports failures with an `error` event.
 */
export const registerReceipts = (deps: {
  socket: RealtimeSocket;
  messages: MessageClient;
  limiter: RateLimiter;
  now: () => number;
  log: Logger;
}): void => {
  const { socket, messages, limiter, now, log } = deps;
  const userId = socket.data.userId;

  socket.on('message seen', (payload, rawAck) => {
    // A client may omit the ack (or send a non-function in its place): only call a real one.
    const ack = asAck<MarkSeenResult>(rawAck);
    void (async () => {
      try {
        if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many seen reports; batch them');
        const reports = parseSeenReports(payload, userId);
        const data = reports.length > 0 ? await messages.markSeen({ userId, reports }) : { marked: [] };
        ack?.({ ok: true, data });
      } catch (error) {
        const body = toErrorBody(error, log);
        if (ack) ack({ ok: false, error: body });
        else if (socket.connected) socket.emit('error', body);
      }
    })();
  });
};
