import {
  DomainError,
  messageViewFromEvent,
  type MessageEvent,
  type MessageView,
  type messageRpc,
} from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { ContextEventBus, Logger, RecordedEvent, Subscription, Tracing } from '@veil/ports';
import type { MembershipProjection } from './membership.projection.ts';
import { createQuoteCache } from './quote-cache.ts';
import type { RealtimeMetrics } from './realtime-metrics.ts';
import type { SendingSockets } from './sending-sockets.ts';
import { userRoom, type RealtimeServer } from './socket-types.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'getMessage'>;

type Handlers = {
  [T in MessageEvent['type']]: (
    event: Extract<MessageEvent, { type: T }>,
    recorded: RecordedEvent,
  ) => Promise<void>;
};

export interface FanoutDeps {
  bus: ContextEventBus;
  io: RealtimeServer;
  membership: Pick<MembershipProjection, 'lookupChat'>;
  messages: MessageClient;
  log: Logger;
  tracing: Pick<Tracing, 'run'>;
  metrics: Pick<RealtimeMetrics, 'delivered' | 'quoted'>;
  /** Whether a user sends (and so sees) read receipts. */
  sendsReceipts: (userId: string) => boolean;
  sendingSockets: Pick<SendingSockets, 'take'>;
}

export interface Fanout extends Subscription {
  /** The newest message-log position this replica has emitted (for its lag). */
  position(): number;
}

/**
 * Persisted message events → this replica's sockets. Every replica follows the message log
 * from the head it finds at start (an ordered consumer, nothing shared) and emits only to the
 * sockets it holds (`io.local`), so a delivery is one hop from the log to the socket: no shared
 * cursor to pull from, no claim in Redis, no broadcast through it. A replica sees each event once
 * and in log order; the position guard makes a repeated event (a follower that restarts from an
 * older position) a no-op. See docs/realtime.md, "Delivery". An event that carries a trace id
 * (the request that caused it) is delivered inside that trace, so the delivery's log lines carry it.
 */
export const startFanout = async (deps: FanoutDeps): Promise<Fanout> => {
  const { io, membership, messages, log, metrics } = deps;
  const quotes = createQuoteCache();
  let emittedUpTo = await deps.bus.headPosition('message');

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

  /** Whether any of these rooms holds a socket of this replica's, besides `except`. */
  const anyoneIn = (rooms: readonly string[], except?: string) => {
    const local = io.of('/').adapter.rooms;
    return rooms.some((room) => {
      const sockets = local.get(room);
      return !!sockets && sockets.size > (except && sockets.has(except) ? 1 : 0);
    });
  };

  /**
   * The message a reply quotes, as the log this replica is at shows it. One sent before this
   * replica started (or evicted since) is asked of the message service, for this reply only:
   * its read model may be behind or ahead of the log here, so its answer is not kept.
   */
  const quoteOf = async (messageId: string | null): Promise<MessageView | null> => {
    if (!messageId) return null;
    const followed = quotes.quoteOf(messageId);
    metrics.quoted(followed === undefined ? 'miss' : 'hit');
    if (followed !== undefined) return followed;
    try {
      // A quote does not nest the message it quotes in turn, as in the history.
      return { ...(await messages.getMessage({ messageId })).message, replyTo: null };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'MESSAGE_NOT_FOUND') return null;
      throw error; // transient: the follower retries this event
    }
  };

  const handlers: Handlers = {
    async MessageSent(event, recorded) {
      // The message service stores one wrapped key per member at send time.
      const members = await membersOf(event.data.chatId, Object.keys(event.data.encryptedKeys));
      const message = messageViewFromEvent(event, recorded.position, await quoteOf(event.data.replyTo));
      // Only members it is keyed for: a member removed a moment before the send, whom this
      // replica's membership has not dropped yet, gets nothing they could not read anyway.
      const recipients = members.filter((id) => id !== event.data.senderId && id in event.data.encryptedKeys);
      // The sender's other devices move the chat up and show the message as its preview; the
      // sending socket has it from its ack. Rooms without a socket here are not encoded for.
      const { senderId, clientMessageId } = event.data;
      const sendingSocket = deps.sendingSockets.take(senderId, clientMessageId);
      const senderRoom = userRoom(senderId);
      if (anyoneIn([senderRoom], sendingSocket)) {
        const others = io.local.to(senderRoom);
        (sendingSocket ? others.except(sendingSocket) : others).emit('message sent', { message });
      }
      // Counted whether or not a recipient has a socket here, as every other event is.
      metrics.delivered('message received');
      const recipientRooms = recipients.map(userRoom);
      if (anyoneIn(recipientRooms)) io.local.to(recipientRooms).emit('message received', { message });
    },
    async MessageSeen(event) {
      const { chatId, messageId, userId } = event.data;
      const members = await membersOf(chatId, [userId]);
      // Reciprocal: a reader who sends none is seen by no one, and whoever sends none sees none.
      const told = deps.sendsReceipts(userId)
        ? members.filter((id) => id === userId || deps.sendsReceipts(id))
        : [userId];
      io.local.to(told.map(userRoom)).emit('update seen', { chatId, messageId, userId });
      metrics.delivered('update seen');
    },
    // Changes go to every member, the author included: their other devices show them too.
    async MessageEdited(event) {
      const { chatId, messageId, content, iv, encryptedKeys, signature } = event.data;
      const members = await membersOf(chatId, Object.keys(encryptedKeys));
      const notice = {
        chatId,
        messageId,
        content,
        iv,
        encryptedKeys,
        editedAt: event.occurredAt,
        ...(signature && { signature }),
      };
      io.local.to(members.filter((id) => id in encryptedKeys).map(userRoom)).emit('message edited', notice);
      metrics.delivered('message edited');
    },
    async MessageDeleted(event) {
      const { chatId, messageId, deletedBy, signature } = event.data;
      const members = await membersOf(chatId, [deletedBy]);
      const notice = { chatId, messageId, ...(signature && { signature }) };
      io.local.to(members.map(userRoom)).emit('message deleted', notice);
      metrics.delivered('message deleted');
    },
    async MessageExpired(event) {
      const { chatId, messageId } = event.data;
      const members = await membersOf(chatId, []);
      io.local.to(members.map(userRoom)).emit('message expired', { chatId, messageId });
      metrics.delivered('message expired');
    },
    async MessageHidden(event) {
      const { chatId, messageId, userId } = event.data;
      io.local.to(userRoom(userId)).emit('message hidden', { chatId, messageId });
      metrics.delivered('message hidden');
    },
    async ReactionSet(event) {
      const { chatId, messageId, userId, content, iv, encryptedKeys, signature } = event.data;
      const members = await membersOf(chatId, Object.keys(encryptedKeys));
      const reaction = { content, iv, encryptedKeys, ...(signature && { signature }) };
      const notice = { chatId, messageId, userId, reaction };
      io.local.to(members.filter((id) => id in encryptedKeys).map(userRoom)).emit('reaction', notice);
      metrics.delivered('reaction');
    },
    async ReactionRemoved(event) {
      const { chatId, messageId, userId, signature } = event.data;
      const members = await membersOf(chatId, [userId]);
      io.local.to(members.map(userRoom)).emit('reaction', {
        chatId,
        messageId,
        userId,
        reaction: null,
        ...(signature && { removalSignature: signature }),
      });
      metrics.delivered('reaction');
    },
    // Nothing live: the member's other browsers find their copies with the history they load.
    async MessageKeyRewrapped() {},
  };

  const deliver = async (recorded: RecordedEvent<MessageEvent>) => {
    // Read by type, as every projection reads the log: the message service wrote these events
    // from typed commands, and a schema parse of each (ciphertext, a key per member) was about
    // 3 % of the embedded process in profiles (BENCHMARKS.md).
    const { type } = recorded.event;
    // One handler per type; the compiler cannot pair a union's type with its handler's event.
    const handler = Object.hasOwn(handlers, type)
      ? (handlers[type] as (e: MessageEvent, r: RecordedEvent) => Promise<void>)
      : undefined;
    if (handler) {
      // Everything that can fail runs before the emit; a throw retries this same event.
      await handler(recorded.event, recorded);
      // After the delivery: a reply never quotes itself, and a retried event is applied once.
      quotes.apply(recorded.event, recorded.position);
      log.debug({ position: recorded.position, type }, 'message event delivered');
    } else {
      // A type this replica does not know (a newer writer): skip it, loudly, rather than stall.
      log.error({ position: recorded.position, type }, 'unknown message event skipped');
    }
  };

  const subscription = await deps.bus.follow({
    context: 'message',
    afterPosition: emittedUpTo,
    handler: async (recorded) => {
      if (recorded.position <= emittedUpTo) return;
      const { traceId } = recorded.event;
      await (traceId ? deps.tracing.run(traceId, () => deliver(recorded)) : deliver(recorded));
      emittedUpTo = recorded.position;
    },
  });
  return { stop: () => subscription.stop(), position: () => emittedUpTo };
};
