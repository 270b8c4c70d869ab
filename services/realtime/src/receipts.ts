import { DomainError, idSchema, type messageRpc } from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import { answerRequest, type RequestHandlerDeps } from './acks.ts';

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
export const registerReceipts = (deps: RequestHandlerDeps<MessageClient>): void => {
  const { socket, messages, limiter, now, log } = deps;
  const userId = socket.data.userId;

  socket.on('message seen', (payload, rawAck) =>
    answerRequest(socket, rawAck, log, async (): Promise<MarkSeenResult> => {
      if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many seen reports; batch them');
      const reports = parseSeenReports(payload, userId);
      return reports.length > 0 ? messages.markSeen({ userId, reports }) : { marked: [] };
    }),
  );
};
