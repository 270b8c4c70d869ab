import {
  DomainError,
  keyBackupStreamId,
  summarizeKeyBackup,
  type AccountStateBlob,
  type KeyBackupBlob,
  type KeyStatus,
  type userRpc,
} from '@veil/contracts';
import { newEvent, type RpcImplementation } from '@veil/kernel';
import type { Clock, ContextEventStore, IdGenerator } from '@veil/ports';
import type { KeyBackupLimiter } from './key-backup-limits.ts';
import type { UserDoc } from '../projections/user-directory.projection.ts';

/**
 * The encrypted key backup: one stream per account (`keybackup-<userId>`) whose last
 * `KeyBackupStored` is the current backup. The server checks its shape and that it names the
 * account's published key; it cannot open it. Every operation acts on the verified caller's own
 * account: there is no way to name another.
 */
type Deps = {
  store: ContextEventStore;
  clock: Clock;
  ids: IdGenerator;
  limiter: KeyBackupLimiter;
  /** The account's directory entry; USER_NOT_FOUND when there is none. */
  requireUser: (userId: string) => Promise<UserDoc>;
};

type KeyBackupOperations = Pick<
  typeof userRpc.operations,
  'keyStatus' | 'keyBackup' | 'storeKeyBackup' | 'accountState' | 'storeAccountState'
>;

/** A backup's account state must be sealed for and signed by the account's published keys. */
export const checkStateNamesKeys = (
  state: AccountStateBlob,
  publicKey: string,
  signingKey: string | null,
) => {
  if (state.encryptionKey !== publicKey || state.signingKey !== signingKey)
    throw new DomainError(
      'VALIDATION_FAILED',
      "The account state must be sealed for the account's published keys",
    );
};

/**
 * A backup must hold the account's published keys (the signing key, when the backup has one), and
 * its account state, when it carries one, must be sealed for them.
 */
export const checkBackupHoldsKeys = (backup: KeyBackupBlob, publicKey: string, signingKey: string | null) => {
  if (backup.publicKey !== publicKey)
    throw new DomainError('VALIDATION_FAILED', "The key backup must hold the account's published key");
  if (backup.signingKey && backup.signingKey.publicKey !== signingKey)
    throw new DomainError(
      'VALIDATION_FAILED',
      "The key backup must hold the account's published signing key",
    );
  if (backup.state) checkStateNamesKeys(backup.state, publicKey, signingKey);
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

const currentBackup = async (store: ContextEventStore, userId: string) => {
  const last = await store.readLast('user', keyBackupStreamId(userId));
  const event = last?.event;
  return event?.type === 'KeyBackupStored' ? { backup: event.data.backup, storedAt: event.occurredAt } : null;
};

/**
 * The account's published keys and the backup of them. A backup of keys the account has since
 * replaced (a reset without a new backup) is not a backup of the current ones: none is reported.
 */
export const keyStatus = async (
  deps: Pick<Deps, 'store' | 'requireUser'>,
  userId: string,
): Promise<KeyStatus> => {
  const [user, current] = await Promise.all([deps.requireUser(userId), currentBackup(deps.store, userId)]);
  const ofCurrentKey = current && current.backup.publicKey === user.publicKey ? current : null;
  return {
    publicKey: user.publicKey,
    signingKey: user.signingKey ?? null,
    publishedAt: user.keysPublishedAt ?? user.registeredAt,
    backup: ofCurrentKey && summarizeKeyBackup(ofCurrentKey.backup, ofCurrentKey.storedAt),
  };
};

export const keyBackupHandlers = (deps: Deps): RpcImplementation<KeyBackupOperations> => {
  const { requireUser } = deps;
  return {
    keyStatus: ({ userId }) => keyStatus(deps, userId),

    async keyBackup({ userId }) {
      await deps.limiter.download(userId);
      const current = await currentBackup(deps.store, userId);
      if (!current) throw new DomainError('NOT_FOUND', 'No key backup for this account');
      return current;
    },

    async storeKeyBackup({ userId, backup }) {
      await deps.limiter.write(userId);
      const user = await requireUser(userId);
      checkBackupHoldsKeys(backup, user.publicKey, user.signingKey ?? null);
      return appendKeyBackup(deps, userId, backup);
    },

    async accountState({ userId }) {
      const current = await currentBackup(deps.store, userId);
      if (!current) throw new DomainError('NOT_FOUND', 'No key backup for this account');
      return { state: current.backup.state ?? null, storedAt: current.storedAt };
    },

    async storeAccountState({ userId, state }) {
      const [user, current] = await Promise.all([requireUser(userId), currentBackup(deps.store, userId)]);
      // An account without a backup spends nothing on asking.
      if (!current || current.backup.publicKey !== user.publicKey)
        throw new DomainError('NOT_FOUND', 'No key backup of the current keys for this account');
      await deps.limiter.write(userId);
      checkStateNamesKeys(state, user.publicKey, user.signingKey ?? null);
      const { storedAt } = await appendKeyBackup(deps, userId, { ...current.backup, state });
      return { storedAt };
    },
  };
};
