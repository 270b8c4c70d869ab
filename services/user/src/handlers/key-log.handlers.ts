import { DomainError, type userRpc } from '@veil/contracts';
import type { RpcImplementation, RunningProjection } from '@veil/kernel';
import type { Clock, Collection, EventStore, IdGenerator } from '@veil/ports';
import { appendKeyBackup, checkBackupHoldsKeys } from './key-backup.handlers.ts';
import { appendKeyLogEntry, checkEncryptionKey, checkSigningKey } from './key-log.ts';
import type { KeyLogDoc, UserDoc } from '../projections/user-directory.projection.ts';

/**
 * The key-change log's operations: reading a user's log, an account's first signing key, and
 * "I lost my key: start fresh". The account that changes is always the verified caller's.
 */
type Deps = {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  keyLogs: Collection<KeyLogDoc>;
  directory: RunningProjection;
  /** Throws RATE_LIMITED past the account's key resets for the day. */
  spendKeyReset: (userId: string) => Promise<void>;
  requireUser: (userId: string) => Promise<UserDoc>;
  keyStatus: (userId: string) => ReturnType<RpcImplementation<typeof userRpc.operations>['keyStatus']>;
};

type KeyLogOperations = Pick<typeof userRpc.operations, 'keyLog' | 'addSigningKey' | 'resetKeys'>;

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

    async addSigningKey({ userId, signingKey }) {
      await checkSigningKey(signingKey);
      const user = await requireUser(userId);
      const position = await appendKeyLogEntry(deps, userId, (last) => {
        if (last?.signingKey ?? user.signingKey)
          throw new DomainError('SIGNING_KEY_EXISTS', 'This account already has a signing key');
        return {
          encryptionKey: last?.encryptionKey ?? user.publicKey,
          signingKey,
          reason: 'signing-key-added',
        };
      });
      await deps.directory.waitFor('user', position);
      return deps.keyStatus(userId);
    },

    async resetKeys({ userId, publicKey, signingKey, keyBackup }) {
      await Promise.all([checkEncryptionKey(publicKey), checkSigningKey(signingKey)]);
      if (keyBackup) checkBackupHoldsKeys(keyBackup, publicKey, signingKey);
      const user = await requireUser(userId);
      if (publicKey === user.publicKey || signingKey === user.signingKey)
        throw new DomainError('VALIDATION_FAILED', 'A key reset needs new keys, not the published ones');
      await deps.spendKeyReset(userId);
      const position = await appendKeyLogEntry(deps, userId, () => ({
        encryptionKey: publicKey,
        signingKey,
        reason: 'reset',
      }));
      if (keyBackup) await appendKeyBackup(deps, userId, keyBackup);
      await deps.directory.waitFor('user', position);
      return deps.keyStatus(userId);
    },
  };
};
