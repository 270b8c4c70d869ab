import { idSchema, type messageRpc } from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { Logger, RateLimit, Tracing } from '@veil/ports';
import { asAck } from './acks.ts';
import { scheduleTokenExpiry } from './auth.middleware.ts';
import type { CallPusher } from './calls/call-push.ts';
import { registerCallSignals } from './calls/call-signals.ts';
import { registerLinking, type LinkChannel } from './links/link-channel.ts';
import type { MembershipProjection } from './membership.projection.ts';
import { registerMessageChanges } from './message-changes.ts';
import type { Presence } from './presence.ts';
import { createRateLimiter, socketBudgets } from './rate-limit.ts';
import type { RealtimeMetrics } from './realtime-metrics.ts';
import { registerReceipts } from './receipts.ts';
import { registerSending } from './sending.ts';
import type { SendingSockets } from './sending-sockets.ts';
import { chatRoom, userRoom, type RealtimeServer, type RealtimeSocket } from './socket-types.ts';
import { registerTyping } from './typing.ts';

export interface ConnectionDeps {
  io: RealtimeServer;
  membership: MembershipProjection;
  presence: Presence;
  messages: Pick<RpcClient<typeof messageRpc.operations>, 'markSeen' | 'send' | 'edit' | 'remove' | 'react'>;
  /** The per-user write budget, shared with the HTTP write routes (changes to messages spend it). */
  writes: RateLimit;
  /** The per-user budget of call signals, shared by the replicas. */
  callSignals: RateLimit;
  callPusher: CallPusher;
  log: Logger;
  now: () => number;
  tracing: Pick<Tracing, 'run'>;
  metrics: Pick<RealtimeMetrics, 'sent'>;
  links: LinkChannel;
  /** The typer's privacy switch. */
  showsTyping: (userId: string) => boolean;
  sendingSockets: SendingSockets;
}

const forbidden = (socket: RealtimeSocket, what: string) =>
  socket.emit('error', { code: 'FORBIDDEN', message: `${what}: the user id must be your own` });

/**
 * Everything one authenticated socket can do. The user id is `socket.data.userId` (from the
 * token); ids in payloads are only compared with it, never used in its place.
 */
export const onConnection = (deps: ConnectionDeps) => (socket: RealtimeSocket) => {
  const { io, membership, presence, log, now } = deps;
  const userId = socket.data.userId;
  const chatter = createRateLimiter(socketBudgets.chatter);
  const failed = (error: unknown) => log.warn({ err: error, userId }, 'presence update failed');

  void socket.join(userRoom(userId));
  const cancelExpiry = scheduleTokenExpiry(socket, now);
  presence.socketOnline(socket).catch(failed);

  /** `setup({_id})` used to announce the user; identity now comes from the token, so it only checks. */
  socket.on('setup', (user) => {
    if (!chatter.take(now())) return;
    const claimed = typeof user === 'object' && user !== null ? (user as { _id?: unknown })._id : undefined;
    if (claimed !== userId) return forbidden(socket, 'setup');
    presence.sendOnlineList(socket).catch(failed);
  });

  socket.on('join chat', (chatId) => {
    if (!chatter.take(now())) return;
    void (async () => {
      const chat = idSchema.safeParse(chatId).success ? await membership.lookupChat(chatId) : undefined;
      if (!chat?.members.has(userId)) {
        socket.emit('error', { code: 'NOT_A_MEMBER', message: 'You are not a participant of this chat' });
        return;
      }
      await socket.join(chatRoom(chat.chatId));
    })().catch((error: unknown) => log.warn({ err: error, userId }, 'join chat failed'));
  });

  /**
   * An older client relays a message here after sending it; Veil delivers from the persisted
   * MessageSent event instead, so content emitted here is never relayed. Ignore it, and tell a
   * client that asked for an ack what to use.
   */
  socket.on('new message', (_message, ...rest: unknown[]) => {
    asAck(rest.at(-1))?.({
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Send with `send message` or over HTTP; delivery follows persistence',
      },
    });
  });

  socket.on('online', () => {
    if (!chatter.take(now())) return;
    presence.socketOnline(socket).catch(failed);
  });

  /** Logout: this socket stops counting towards presence (the user goes offline if it was the last). */
  socket.on('set offline', (claimed) => {
    if (!chatter.take(now())) return;
    if (claimed !== userId) return forbidden(socket, 'set offline');
    presence.socketOffline(socket).catch(failed);
  });

  registerTyping({ io, socket, membership, limiter: chatter, now, showsTyping: deps.showsTyping });
  registerReceipts({
    socket,
    messages: deps.messages,
    limiter: createRateLimiter(socketBudgets.receipts),
    now,
    log,
  });

  registerSending({
    socket,
    messages: deps.messages,
    limiter: createRateLimiter(socketBudgets.sends),
    now,
    log,
    tracing: deps.tracing,
    metrics: deps.metrics,
    sendingSockets: deps.sendingSockets,
  });

  registerMessageChanges({
    socket,
    messages: deps.messages,
    writes: deps.writes,
    log,
    tracing: deps.tracing,
  });

  registerLinking({ socket, channel: deps.links, limiter: createRateLimiter(socketBudgets.links), now, log });

  registerCallSignals({
    io,
    socket,
    membership,
    limiter: createRateLimiter(socketBudgets.calls),
    budget: deps.callSignals,
    pusher: deps.callPusher,
    now,
    log,
  });

  socket.on('disconnect', () => {
    cancelExpiry();
    presence.socketOffline(socket).catch(failed);
  });
};
