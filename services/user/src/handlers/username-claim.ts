import { DomainError, usernameStreamId } from '@veil/contracts';
import { newEvent, withRetry } from '@veil/kernel';
import type { Clock, ContextEventStore, IdGenerator } from '@veil/ports';

/**
 * Usernames are unique, case-insensitively, because each name has its own stream
 * (`name-<lowercased>`) and a claim is appended with the version that was read: of two
 * registrations or renames racing for one name, the second append fails with
 * VERSION_CONFLICT, re-reads, and sees the name taken. No check-then-write race.
 */
type Deps = { store: ContextEventStore; clock: Clock; ids: IdGenerator };

export const claimUsername = (deps: Deps, username: string, userId: string): Promise<void> =>
  withRetry(async () => {
    const streamId = usernameStreamId(username);
    const last = await deps.store.readLast('user', streamId);
    const lastEvent = last?.event;
    if (lastEvent?.type === 'UsernameClaimed') {
      if (lastEvent.data.userId === userId) return;
      throw new DomainError('USERNAME_TAKEN', 'Username is already taken');
    }
    await deps.store.append('user', newEvent(deps, 'UsernameClaimed', streamId, { userId, username }), {
      expectedVersion: last?.position ?? 0,
    });
  });

export const releaseUsername = (deps: Deps, username: string, userId: string): Promise<void> =>
  withRetry(async () => {
    const streamId = usernameStreamId(username);
    const last = await deps.store.readLast('user', streamId);
    const lastEvent = last?.event;
    if (lastEvent?.type !== 'UsernameClaimed' || lastEvent.data.userId !== userId) return;
    await deps.store.append('user', newEvent(deps, 'UsernameReleased', streamId, { userId }), {
      expectedVersion: last!.position,
    });
  });
