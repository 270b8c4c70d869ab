import { DomainError, defaultPrivacy, type EventData, type Privacy } from '@veil/contracts';
import type { ContextEventBus, Logger } from '@veil/ports';

/**
 * What each account shares (read receipts, typing, online state), from the user log's
 * PrivacyChanged events: an in-memory map per replica, like membership, read from the start
 * of the log before the replica serves. The gateway enforces the switches with it.
 */
export interface PrivacyProjection {
  of(userId: string): Privacy;
  stop(): Promise<void>;
}

export const startPrivacyProjection = async (deps: {
  bus: ContextEventBus;
  log: Logger;
  /** A change after start (not during the first read). Must not throw. */
  onChange?: (userId: string, before: Privacy, after: Privacy) => void;
  /**
   * An account blocked or unblocked someone, after start: the same log, followed once. The list
   * itself is the user service's; only the news of a change is passed on. Must not throw.
   */
  onBlocksChange?: (userId: string) => void;
  startTimeoutMs?: number;
}): Promise<PrivacyProjection> => {
  const settings = new Map<string, Privacy>();
  const liveAfter = await deps.bus.headPosition('user');
  let caughtUp: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (caughtUp = resolve));
  if (liveAfter === 0) caughtUp();

  const subscription = await deps.bus.follow({
    context: 'user',
    afterPosition: 0,
    handler: ({ event, position }) => {
      if (event.type === 'PrivacyChanged') {
        const { userId, privacy } = event.data as EventData<'PrivacyChanged'>;
        const before = settings.get(userId) ?? defaultPrivacy;
        settings.set(userId, privacy);
        if (position > liveAfter) deps.onChange?.(userId, before, privacy);
      }
      if ((event.type === 'UserBlocked' || event.type === 'UserUnblocked') && position > liveAfter)
        deps.onBlocksChange?.((event.data as EventData<'UserBlocked'>).userId);
      if (position >= liveAfter) caughtUp();
    },
  });

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new DomainError('UNAVAILABLE', 'Privacy settings did not load in time')),
      deps.startTimeoutMs ?? 60_000,
    );
  });
  try {
    await Promise.race([ready, timeout]);
  } catch (error) {
    await subscription.stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  deps.log.debug({ accounts: settings.size }, 'privacy settings loaded');

  return {
    of: (userId) => settings.get(userId) ?? defaultPrivacy,
    stop: () => subscription.stop(),
  };
};
