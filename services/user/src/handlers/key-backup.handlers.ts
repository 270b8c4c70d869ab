import {
  DomainError,
  keyBackupStreamId,
  summarizeKeyBackup,
  type KeyBackupBlob,
  type UserEvent,
  type userRpc,
} from '@veil/contracts';
import { newEvent, type RpcImplementation } from '@veil/kernel';
import type { Clock, EventStore, IdGenerator } from '@veil/ports';
import type { KeyBackupLimiter } from './key-backup-limits.ts';
import type { UserDoc } from '../projections/user-directory.projection.ts';

/**
 * The encrypted key backup: one stream per account (`keybackup-<userId>`) whose last
 * `KeyBackupStored` is the current backup. The server checks its shape and that it names the
 * account's published key; it cannot open it. Every operation acts on the verified caller's own
 * account: there is no way to name another.
 */
type Deps = {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  limiter: KeyBackupLimiter;
  /** The account's directory entry; USER_NOT_FOUND when there is none. */
  requireUser: (userId: string) => Promise<UserDoc>;
};

type KeyBackupOperations = Pick<typeof userRpc.operations, 'keyStatus' | 'keyBackup' | 'storeKeyBackup'>;

export const checkBackupNamesKey = (backup: KeyBackupBlob, publicKey: string): void => {
  if (backup.publicKey !== publicKey)
    throw new DomainError('VALIDATION_FAILED', "The key backup must hold the account's published key");
};

/** Appends the backup; `expectedVersion` 0 when the account is new (registration). */
export const appendKeyBackup = async (
  deps: Pick<Deps, 'store' | 'clock' | 'ids'>,
  userId: string,
  backup: KeyBackupBlob,
  expectedVersion?: number,
) => {
  const event = newEvent(deps, 'KeyBackupStored', keyBackupStreamId(userId), { userId, backup });
  await deps.store.append('user', event, expectedVersion === undefined ? {} : { expectedVersion });
  return summarizeKeyBackup(backup, event.occurredAt);
};

const currentBackup = async (store: EventStore, userId: string) => {
  const last = await store.readLast('user', keyBackupStreamId(userId));
  const event = last?.event as UserEvent | undefined;
  return event?.type === 'KeyBackupStored' ? { backup: event.data.backup, storedAt: event.occurredAt } : null;
};

export const keyBackupHandlers = (deps: Deps): RpcImplementation<KeyBackupOperations> => {
  const { requireUser } = deps;
  return {
    async keyStatus({ userId }) {
      const [user, current] = await Promise.all([requireUser(userId), currentBackup(deps.store, userId)]);
      return {
        publicKey: user.publicKey,
        publishedAt: user.registeredAt,
        backup: current && summarizeKeyBackup(current.backup, current.storedAt),
      };
    },

    async keyBackup({ userId }) {
      await deps.limiter.download(userId);
      const current = await currentBackup(deps.store, userId);
      if (!current) throw new DomainError('NOT_FOUND', 'No key backup for this account');
      return current;
    },

    async storeKeyBackup({ userId, backup }) {
      await deps.limiter.write(userId);
      checkBackupNamesKey(backup, (await requireUser(userId)).publicKey);
      return appendKeyBackup(deps, userId, backup);
    },
  };
};
