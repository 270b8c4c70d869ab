import {
  DomainError,
  messageRpc,
  messageStreamId,
  type MessageEvent,
  type MessageView,
} from '@veil/contracts';
import { serveRpc } from '@veil/kernel';
import type { EventBus, Rpc, RpcServeHandle } from '@veil/ports';
import { ulid } from 'ulid';

type Sent = Extract<MessageEvent, { type: 'MessageSent' }>;

/**
 * A stand-in for the message service in realtime tests: a real RPC server on the real bus that
 * answers `getMessage` from the event log and `markSeen` by appending real MessageSeen events.
 * It is a test double for another service, not a mock of the gateway: the gateway still gets
 * every `update seen` from its own fan-out of those events. `failNextGetMessage` makes the
 * next getMessage fail UNAVAILABLE (a transient outage), to prove the fan-out retries.
 */
export interface FakeMessageService {
  stop(): Promise<void>;
  failNextGetMessage(): void;
  /** Calls of markSeen, for asserting that a refused batch never reached the service. */
  markSeenCalls: { userId: string; reports: { chatId: string; messageId: string }[] }[];
}

const viewOf = (
  sent: Sent,
  position: number,
  replyTo: MessageView | null,
  seenBy: Record<string, true>,
): MessageView => ({
  _id: sent.data.messageId,
  chat: sent.data.chatId,
  sender: { _id: sent.data.senderId },
  content: sent.data.content,
  iv: sent.data.iv,
  encryptedKeys: sent.data.encryptedKeys,
  replyTo,
  seenBy,
  createdAt: sent.occurredAt,
  seq: position,
});

export const startFakeMessageService = async (bus: EventBus, rpc: Rpc): Promise<FakeMessageService> => {
  let failures = 0;
  const markSeenCalls: FakeMessageService['markSeenCalls'] = [];

  const load = async (messageId: string) => {
    const { events } = await bus.readStream('message', messageStreamId(messageId));
    const first = events[0];
    if (!first || first.event.type !== 'MessageSent') return null;
    const seenBy: Record<string, true> = {};
    for (const { event } of events)
      if (event.type === 'MessageSeen')
        seenBy[(event as Extract<MessageEvent, { type: 'MessageSeen' }>).data.userId] = true;
    return { sent: first.event as Sent, position: first.position, seenBy };
  };

  const notHere = async (): Promise<never> => {
    throw new DomainError('UNAVAILABLE', 'not part of this test double');
  };
  const handle: RpcServeHandle = await serveRpc(rpc, messageRpc, {
    send: notHere,
    userApplied: notHere,
    report: notHere,
    reports: notHere,
    closeReport: notHere,
    unread: notHere,
    history: notHere,
    edit: notHere,
    remove: notHere,
    react: notHere,
    rewrap: notHere,
    startUpload: notHere,
    uploadInProgress: notHere,
    completeUpload: notHere,
    cancelUpload: notHere,
    readableBlob: notHere,
    pushKey: notHere,
    pushSubscribe: notHere,
    pushUnsubscribe: notHere,
    async getMessage({ messageId }) {
      if (failures > 0) {
        failures -= 1;
        throw new DomainError('UNAVAILABLE', 'simulated outage');
      }
      const found = await load(messageId);
      if (!found) throw new DomainError('MESSAGE_NOT_FOUND', 'Message not found');
      const replyTo = found.sent.data.replyTo ? await load(found.sent.data.replyTo) : null;
      const replyView = replyTo ? viewOf(replyTo.sent, replyTo.position, null, replyTo.seenBy) : null;
      return { message: viewOf(found.sent, found.position, replyView, found.seenBy) };
    },
    async markSeen({ userId, reports }) {
      markSeenCalls.push({ userId, reports });
      const marked: { chatId: string; messageId: string }[] = [];
      for (const { chatId, messageId } of reports) {
        const found = await load(messageId);
        // The real service also checks membership; the sender never "sees" their own message.
        if (
          !found ||
          found.sent.data.chatId !== chatId ||
          found.sent.data.senderId === userId ||
          found.seenBy[userId]
        )
          continue;
        if (!(userId in found.sent.data.encryptedKeys)) continue;
        await bus.append('message', {
          type: 'MessageSeen',
          eventId: ulid(),
          streamId: messageStreamId(messageId),
          occurredAt: new Date().toISOString(),
          schemaVersion: 1,
          data: { messageId, chatId, userId },
        });
        marked.push({ chatId, messageId });
      }
      return { marked };
    },
  });

  return {
    stop: () => handle.stop(),
    failNextGetMessage: () => void (failures += 1),
    markSeenCalls,
  };
};
