import { normalizeRecoveryKey, VeilCryptoError, type BackupSecret, type KeyBackup } from '@veil/crypto';
import { isApiError } from '../../lib/api-error.ts';

/**
 * One field takes either secret: what can be a recovery key (32 letters and digits, however
 * spaced) is tried as one, and as the passphrase too if the backup has one.
 */
const secretsFor = (typed: string, backup: KeyBackup): BackupSecret[] => [
  ...(normalizeRecoveryKey(typed) ? [{ recoveryKey: typed }] : []),
  ...(backup.unlocks.some((unlock) => unlock.kind === 'passphrase') ? [{ passphrase: typed }] : []),
];

const isWrongSecret = (error: unknown) =>
  error instanceof VeilCryptoError && error.code === 'ERR_BACKUP_SECRET';

/** Runs `use` with the first secret the typed text turns out to be; a wrong secret throws ERR_BACKUP_SECRET. */
export const withTypedSecret = async <T>(
  backup: KeyBackup,
  typed: string,
  use: (secret: BackupSecret) => Promise<T>,
): Promise<T> => {
  const secrets = secretsFor(typed, backup);
  if (secrets.length === 0)
    throw new VeilCryptoError(
      'ERR_RECOVERY_KEY_FORMAT',
      'Not a recovery key, and this backup has no passphrase',
    );
  let failure: unknown;
  for (const secret of secrets) {
    try {
      return await use(secret);
    } catch (error) {
      if (!isWrongSecret(error)) throw error;
      failure = error;
    }
  }
  throw failure;
};

export const unlockTexts = {
  wrongKey: 'That recovery key does not open your backup. Check it and try again.',
  wrongPassphrase: 'That passphrase does not open your backup. Check it and try again.',
  notAKey: 'That is not a recovery key: it has 32 letters and digits, in 8 groups of 4.',
  damaged: 'Your backup opened, but the key inside is damaged. It cannot be restored.',
  failed: 'Your key could not be restored. Please try again.',
} as const;

/** What to tell the user after a failed unlock. */
export const unlockErrorText = (error: unknown, typed: string): string => {
  if (isApiError(error)) return error.message;
  if (!(error instanceof VeilCryptoError)) return unlockTexts.failed;
  switch (error.code) {
    case 'ERR_BACKUP_SECRET':
      return normalizeRecoveryKey(typed) ? unlockTexts.wrongKey : unlockTexts.wrongPassphrase;
    case 'ERR_RECOVERY_KEY_FORMAT':
      return unlockTexts.notAKey;
    case 'ERR_BACKUP_DAMAGED':
      return unlockTexts.damaged;
    case 'ERR_BACKUP_VERSION':
    case 'ERR_BACKUP_FORMAT':
      return error.message;
    default:
      return unlockTexts.failed;
  }
};

/** Seconds to wait before the next try after `failures` wrong ones: 1, 2, 4, ... up to a minute. */
export const retryDelaySeconds = (failures: number): number =>
  failures === 0 ? 0 : Math.min(60, 2 ** (failures - 1));
