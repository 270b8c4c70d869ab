import { idSchema } from '@veil/contracts';
import type { MembershipProjection } from './membership.projection.ts';
import { typingForwardIntervalMs, type RateLimiter } from './rate-limit.ts';
import { userRoom, type RealtimeServer, type RealtimeSocket } from './socket-types.ts';

type Membership = Pick<
  MembershipProjection,
  'chat' | 'directChatBetween' | 'lookupChat' | 'lookupDirectChat'
>;

/** The id a typing payload names: a string, or `{chatId}` / `{to}` (docs/realtime.md, "Events"). */
export const typingTargetId = (payload: unknown): string | undefined => {
  const raw =
    typeof payload === 'object' && payload !== null
      ? ((payload as { chatId?: unknown }).chatId ?? (payload as { to?: unknown }).to)
      : payload;
  return idSchema.safeParse(raw).success ? (raw as string) : undefined;
};

/**
 * The chat a typing event is about: the id is a chat the user belongs to, or the other user of a
 * one-to-one chat. Known chats resolve at once; a miss waits briefly for the membership log.
 */
export const resolveTypingChat = async (membership: Membership, userId: string, targetId: string) => {
  const known = (): string | undefined => {
    if (membership.chat(targetId)?.members.has(userId)) return targetId;
    return membership.directChatBetween(userId, targetId);
  };
  const found = known();
  if (found) return found;
  if ((await membership.lookupChat(targetId))?.members.has(userId)) return targetId;
  return membership.lookupDirectChat(userId, targetId);
};

/**
 * `typing` / `stop typing` → `{chatId, userId}` to the chat's other members, on any replica.
 * A socket's events go through a token bucket, and `typing` is forwarded at most once a second
 * per chat (the client sends one per keystroke; the indicator lasts 3 s).
 */
export const registerTyping = (deps: {
  io: RealtimeServer;
  socket: RealtimeSocket;
  membership: Membership;
  limiter: RateLimiter;
  now: () => number;
  /** The typer's privacy switch: false means no one is told. */
  showsTyping: (userId: string) => boolean;
}): void => {
  const { io, socket, membership, limiter, now } = deps;
  const userId = socket.data.userId;
  const lastForwarded = new Map<string, number>();

  const relay = async (event: 'typing' | 'stop typing', payload: unknown) => {
    if (!limiter.take(now()) || !deps.showsTyping(userId)) return;
    const targetId = typingTargetId(payload);
    const chatId = targetId && (await resolveTypingChat(membership, userId, targetId));
    if (!chatId) {
      socket.emit('error', { code: 'NOT_A_MEMBER', message: `Cannot send ${event}: no shared chat` });
      return;
    }
    if (event === 'typing') {
      const last = lastForwarded.get(chatId);
      if (last !== undefined && now() - last < typingForwardIntervalMs) return;
      lastForwarded.set(chatId, now());
    } else {
      lastForwarded.delete(chatId);
    }
    const others = [...(membership.chat(chatId)?.members ?? [])].filter((id) => id !== userId);
    if (others.length > 0) io.to(others.map(userRoom)).emit(event, { chatId, userId });
  };

  socket.on('typing', (payload) => void relay('typing', payload));
  socket.on('stop typing', (payload) => void relay('stop typing', payload));
};
