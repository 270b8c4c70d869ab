import { DomainError, type userRpc } from '@veil/contracts';
import type { RpcImplementation, RunningProjection } from '@veil/kernel';
import type { Clock, Collection, ContextEventStore, IdGenerator } from '@veil/ports';
import { appendKeyBackup, checkBackupHoldsKeys } from './key-backup.handlers.ts';
import { appendSignedKeyLogEntry, precheckSignedKeyLogEntry } from './key-log-append.ts';
import type { KeyLogDoc, UserDoc } from '../projections/user-directory.projection.ts';

/**
 * The key-change log's operations: reading a user's log, an account's first signing key, its
 * browser attesting its current keys, and "I lost my key: start fresh". Each change is an entry
 * the account's browser signed (`appendSignedKeyLogEntry`). The account that changes is always
 * the verified caller's.
 */
type Deps = {
  store: ContextEventStore;
  clock: Clock;
  ids: IdGenerator;
  keyLogs: Collection<KeyLogDoc>;
  directory: RunningProjection;
  /** Throws RATE_LIMITED past the account's key resets for the day. */
  spendKeyReset: (userId: string) => Promise<void>;
  requireUser: (userId: string) => Promise<UserDoc>;
  keyStatus: (userId: string) => ReturnType<RpcImplementation<typeof userRpc.operations>['keyStatus']>;
};

type KeyLogOperations = Pick<
  typeof userRpc.operations,
  'keyLog' | 'addSigningKey' | 'attestKeys' | 'resetKeys'
>;

export const keyLogHandlers = (deps: Deps): RpcImplementation<KeyLogOperations> => {
  const { requireUser } = deps;
  return {
    async keyLog({ userId }) {
      const [user, log] = await Promise.all([requireUser(userId), deps.keyLogs.get(userId)]);
      return {
        entries: log?.entries ?? [],
        current: { encryptionKey: user.publicKey, signingKey: user.signingKey ?? null },
      };
    },

    async addSigningKey({ userId, entry }) {
      const user = await requireUser(userId);
      const position = await appendSignedKeyLogEntry(deps, userId, entry, 'signing-key-added', (head) => {
        if (head?.signingKey ?? user.signingKey)
          throw new DomainError('SIGNING_KEY_EXISTS', 'This account already has a signing key');
        // An account from before the log has no entry to compare with: its published key.
        if (entry.encryptionKey !== (head?.encryptionKey ?? user.publicKey))
          throw new DomainError('KEY_LOG_CHANGE_FORBIDDEN', 'A first signing key keeps the encryption key');
      });
      await deps.directory.waitFor('user', position);
      return deps.keyStatus(userId);
    },

    async attestKeys({ userId, entry }) {
      await requireUser(userId);
      const position = await appendSignedKeyLogEntry(deps, userId, entry, 'attested');
      await deps.directory.waitFor('user', position);
      return deps.keyStatus(userId);
    },

    async resetKeys({ userId, entry, keyBackup }) {
      if (keyBackup) checkBackupHoldsKeys(keyBackup, entry.encryptionKey, entry.signingKey);
      const user = await requireUser(userId);
      if (entry.encryptionKey === user.publicKey || entry.signingKey === user.signingKey)
        throw new DomainError(
          'KEY_LOG_CHANGE_FORBIDDEN',
          'A key reset needs new keys, not the published ones',
        );
      // A refused entry spends none of the day's resets.
      await precheckSignedKeyLogEntry(deps, userId, entry, 'reset');
      await deps.spendKeyReset(userId);
      const position = await appendSignedKeyLogEntry(deps, userId, entry, 'reset');
      if (keyBackup) await appendKeyBackup(deps, userId, keyBackup);
      await deps.directory.waitFor('user', position);
      return deps.keyStatus(userId);
    },
  };
};
