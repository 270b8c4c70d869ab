import {
  DomainError,
  foldMessage,
  messageRpc,
  messageStreamId,
  messageViewOf,
  quotedViewOf,
  type MessageEvent,
  type MessageState,
} from '@veil/contracts';
import { serveRpc } from '@veil/kernel';
import type { EventBus, Rpc, RpcServeHandle } from '@veil/ports';
import { ulid } from 'ulid';

/**
 * A stand-in for the message service in realtime tests: a real RPC server on the real bus that
 * answers `getMessage` from the event log (each message folded from its stream as the real
 * service's timeline folds it) and `markSeen` by appending real MessageSeen events.
 * It is a test double for another service, not a mock of the gateway: the gateway still gets
 * every `update seen` from its own fan-out of those events. `failNextGetMessage` makes the
 * next getMessage fail UNAVAILABLE (a transient outage), to prove the fan-out retries.
 */
export interface FakeMessageService {
  stop(): Promise<void>;
  failNextGetMessage(): void;
  /** Calls of markSeen, for asserting that a refused batch never reached the service. */
  markSeenCalls: { userId: string; reports: { chatId: string; messageId: string }[] }[];
  /** How many getMessage calls it answered or failed, for asserting the fan-out made none. */
  getMessageCalls(): number;
  /** Calls of pushCall, each answered as pushed: who the gateway asked to ring, for which call. */
  pushCallCalls: { from: string; to: string; chatId: string; callId: string }[];
}

export const startFakeMessageService = async (bus: EventBus, rpc: Rpc): Promise<FakeMessageService> => {
  let failures = 0;
  const markSeenCalls: FakeMessageService['markSeenCalls'] = [];
  let getMessageCalls = 0;
  const pushCallCalls: FakeMessageService['pushCallCalls'] = [];

  const load = async (messageId: string): Promise<MessageState | null> => {
    const { events } = await bus.readStream('message', messageStreamId(messageId));
    return events.reduce<MessageState | null>(
      (state, { event, position }) => foldMessage(state, event as MessageEvent, position),
      null,
    );
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
    async pushCall({ from, to, chatId, callId }) {
      pushCallCalls.push({ from, to, chatId, callId });
      return { pushed: true };
    },
    async getMessage({ messageId }) {
      getMessageCalls += 1;
      if (failures > 0) {
        failures -= 1;
        throw new DomainError('UNAVAILABLE', 'simulated outage');
      }
      const found = await load(messageId);
      if (!found) throw new DomainError('MESSAGE_NOT_FOUND', 'Message not found');
      const replyTo = found.replyTo ? await load(found.replyTo) : null;
      return { message: messageViewOf(found, replyTo && quotedViewOf(replyTo)) };
    },
    async markSeen({ userId, reports }) {
      markSeenCalls.push({ userId, reports });
      const marked: { chatId: string; messageId: string }[] = [];
      for (const { chatId, messageId } of reports) {
        const found = await load(messageId);
        // The real service also checks membership; the sender never "sees" their own message.
        if (!found || found.chat !== chatId || found.sender === userId || found.seenBy[userId]) continue;
        if (!(userId in found.encryptedKeys)) continue;
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
    getMessageCalls: () => getMessageCalls,
    pushCallCalls,
  };
};
