import {
  DomainError,
  durableName,
  messageEventSchema,
  type MessageEvent,
  type MessageView,
  type messageRpc,
} from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { EventBus, Logger, RecordedEvent, Subscription } from '@veil/ports';
import type { EventDedupe } from './dedupe.ts';
import type { MembershipProjection } from './membership.projection.ts';
import { messageViewFromEvent } from './message-view.ts';
import { userRoom, type RealtimeServer } from './socket-types.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'getMessage'>;

type Handlers = {
  [T in MessageEvent['type']]: (
    event: Extract<MessageEvent, { type: T }>,
    recorded: RecordedEvent,
  ) => Promise<void>;
};

export interface FanoutDeps {
  bus: EventBus;
  io: RealtimeServer;
  membership: Pick<MembershipProjection, 'lookupChat'>;
  dedupe: EventDedupe;
  messages: MessageClient;
  log: Logger;
}

/**
 * Persisted message events → sockets. ONE durable consumer shared by every replica, so each event
 * is handled by one replica, which emits to user rooms through the adapter (reaching sockets on
 * all replicas). Redelivery is possible (at-least-once), so each event id is claimed once first.
 */
export const startFanout = async (deps: FanoutDeps): Promise<Subscription> => {
  const { io, membership, dedupe, messages, log } = deps;

  /** Members from the chat log; if the chat is still unknown after catching up, fall back to persisted data. */
  const membersOf = async (chatId: string, fallback: readonly string[]): Promise<string[]> => {
    const chat = await membership.lookupChat(chatId);
    if (chat) return [...chat.members];
    log.warn(
      { chatId },
      'fan-out for a chat missing from the membership log; using the persisted recipients',
    );
    return [...fallback];
  };

  const replyView = async (messageId: string | null): Promise<MessageView | null> => {
    if (!messageId) return null;
    try {
      return (await messages.getMessage({ messageId })).message;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'MESSAGE_NOT_FOUND') return null;
      throw error; // transient: the bus redelivers and we try again
    }
  };

  const handlers: Handlers = {
    async MessageSent(event, recorded) {
      // The message service stores one wrapped key per member at send time.
      const members = await membersOf(event.data.chatId, Object.keys(event.data.encryptedKeys));
      const message = messageViewFromEvent(event, recorded.position, await replyView(event.data.replyTo));
      const recipients = members.filter((id) => id !== event.data.senderId);
      // Claim last: any failure above leaves the event unclaimed for its redelivery.
      if (!(await dedupe.claim(event.eventId))) return;
      if (recipients.length > 0) io.to(recipients.map(userRoom)).emit('message received', { message });
    },
    async MessageSeen(event) {
      const { chatId, messageId, userId } = event.data;
      const members = await membersOf(chatId, [userId]);
      if (!(await dedupe.claim(event.eventId))) return;
      io.to(members.map(userRoom)).emit('update seen', { chatId, messageId, userId });
    },
  };

  return deps.bus.subscribe({
    durable: durableName('realtime', 'fanout'),
    context: 'message',
    startAt: 'new',
    handler: async (recorded) => {
      const parsed = messageEventSchema.safeParse(recorded.event);
      if (!parsed.success) {
        // Poison: acknowledge and skip, or it would block the consumer forever.
        log.error(
          { position: recorded.position, type: recorded.event.type },
          'unreadable message event skipped',
        );
        return;
      }
      const event = parsed.data;
      await (handlers[event.type] as (e: MessageEvent, r: RecordedEvent) => Promise<void>)(event, recorded);
    },
  });
};
