import { normalizeRecoveryKey, VeilCryptoError, type BackupSecret, type KeyBackup } from '@veil/crypto';
import { errorText, isApiError } from '../../lib/api-error.ts';
import { t } from '../../lib/i18n.ts';

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

/** The texts of a failed unlock, in the user's language. */
export const unlockTexts = {
  get wrongKey() {
    return t('backup.wrongKey');
  },
  get wrongPassphrase() {
    return t('backup.wrongPassphrase');
  },
  get notAKey() {
    return t('backup.notAKey');
  },
  get damaged() {
    return t('backup.damaged');
  },
  get newerVersion() {
    return t('backup.newerVersion');
  },
  get malformed() {
    return t('backup.malformed');
  },
  get failed() {
    return t('backup.failed');
  },
};

/** What to tell the user after a failed unlock. */
export const unlockErrorText = (error: unknown, typed: string): string => {
  if (isApiError(error)) return errorText(error);
  if (!(error instanceof VeilCryptoError)) return unlockTexts.failed;
  switch (error.code) {
    case 'ERR_BACKUP_SECRET':
      return normalizeRecoveryKey(typed) ? unlockTexts.wrongKey : unlockTexts.wrongPassphrase;
    case 'ERR_RECOVERY_KEY_FORMAT':
      return unlockTexts.notAKey;
    case 'ERR_BACKUP_DAMAGED':
      return unlockTexts.damaged;
    case 'ERR_BACKUP_VERSION':
      return unlockTexts.newerVersion;
    case 'ERR_BACKUP_FORMAT':
      return unlockTexts.malformed;
    default:
      return unlockTexts.failed;
  }
};

/** Seconds to wait before the next try after `failures` wrong ones: 1, 2, 4, ... up to a minute. */
export const retryDelaySeconds = (failures: number): number =>
  failures === 0 ? 0 : Math.min(60, 2 ** (failures - 1));
