import { DomainError, chatEventSchema } from '@veil/contracts';
import type { ContextEventBus, Logger, Subscription } from '@veil/ports';
import {
  createMembershipMap,
  type ChatMembership,
  type MembershipChange,
  type MembershipMap,
} from './membership.map.ts';

/**
 * The realtime gateway's own membership read model: an in-memory map per replica, rebuilt by
 * following the chat context from position 0 at start. Every replica holds all chats; see
 * docs/realtime.md for the memory bound and when to move it to a shared read model.
 */
export interface MembershipProjection extends Omit<MembershipMap, 'apply'> {
  /** The chat, waiting briefly for the follower to reach the log's head if it is not known yet. */
  lookupChat(chatId: string): Promise<ChatMembership | undefined>;
  /** The direct chat of two users, with the same brief wait on a miss. */
  lookupDirectChat(a: string, b: string): Promise<string | undefined>;
  stop(): Promise<void>;
}

interface Waiter {
  position: number;
  resolve(): void;
}

/** How long a lookup that misses waits for the follower (a chat created a moment ago). */
const missWaitMs = 3_000;

export const startMembershipProjection = async (deps: {
  bus: ContextEventBus;
  log: Logger;
  /** Called for changes that happen after start (not during the initial replay). Must not throw. */
  onChange?: (change: MembershipChange) => void;
  /** An account archived or pinned a chat, or took it back, after start. Must not throw. */
  onListPrefsChange?: (userId: string, chatId: string) => void;
  startTimeoutMs?: number;
}): Promise<MembershipProjection> => {
  const { bus, log } = deps;
  const map = createMembershipMap();
  let position = 0;
  let waiters: Waiter[] = [];
  const liveAfter = await bus.headPosition('chat');

  const release = () => {
    waiters = waiters.filter((waiter) => {
      if (position < waiter.position) return true;
      waiter.resolve();
      return false;
    });
  };

  const waitFor = (target: number, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (position >= target) return resolve();
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== waiter);
        reject(new DomainError('UNAVAILABLE', 'Chat membership is catching up; try again'));
      }, timeoutMs);
      const waiter: Waiter = {
        position: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      waiters.push(waiter);
    });

  const subscription: Subscription = await bus.follow({
    context: 'chat',
    afterPosition: 0,
    handler: (recorded) => {
      const parsed = chatEventSchema.safeParse(recorded.event);
      if (parsed.success) {
        const event = parsed.data;
        const change = map.apply(event);
        const live = recorded.position > liveAfter;
        if (change && live) deps.onChange?.(change);
        if (live && (event.type === 'ChatArchiveSet' || event.type === 'ChatPinSet'))
          deps.onListPrefsChange?.(event.data.userId, event.data.chatId);
      } else {
        // A malformed event must not stall the follower: skip it, loudly.
        log.error(
          { position: recorded.position, type: recorded.event.type },
          'unreadable chat event skipped',
        );
      }
      position = recorded.position;
      release();
    },
  });

  try {
    await waitFor(liveAfter, deps.startTimeoutMs ?? 60_000);
  } catch (error) {
    await subscription.stop();
    throw error;
  }

  /** On a miss: catch up to the current head once, then look again. */
  const afterCatchUp = async <T>(lookup: () => T | undefined): Promise<T | undefined> => {
    const found = lookup();
    if (found !== undefined) return found;
    try {
      await waitFor(await bus.headPosition('chat'), missWaitMs);
    } catch (error) {
      log.warn({ err: error }, 'membership lookup gave up waiting for the chat log');
    }
    return lookup();
  };

  return {
    chat: map.chat,
    isMember: map.isMember,
    directChatBetween: map.directChatBetween,
    contactsOf: map.contactsOf,
    lookupChat: (chatId) => afterCatchUp(() => map.chat(chatId)),
    lookupDirectChat: (a, b) => afterCatchUp(() => map.directChatBetween(a, b)),
    async stop() {
      await subscription.stop();
      for (const waiter of waiters) waiter.resolve();
      waiters = [];
    },
  };
};
