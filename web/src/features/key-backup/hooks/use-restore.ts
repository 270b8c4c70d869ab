import { openKeyBackupBundle, type KeyBackup } from '@veil/crypto';
import { useRef, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { takeSealedAccountState, keepKeyBundle, keysRestored } from '../../keys/index.ts';
import { api } from '../../../lib/api.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { t } from '../../../lib/i18n.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useDownloadKeyBackupMutation, useStoreKeyBackupMutation } from '../api/key-backup.api.ts';
import { retryDelaySeconds, unlockErrorText, withTypedSecret } from '../unlock.ts';

export const noBackupText = () => t('backup.noBackup');

/**
 * Restores the account's key from its backup into this browser. The backup is downloaded once
 * per screen (the server counts downloads); each wrong secret makes the next try wait longer
 * (1 s, 2 s, 4 s, ... up to a minute) and writes nothing. On success every key of the bundle is
 * stored like a new one (non-extractable, plus its sealed copy) and every loaded history is read
 * again. A backup whose passphrase unlock still uses PBKDF2, opened with that passphrase, is
 * stored again re-wrapped with Argon2id (only that unlock changes); if that store fails, the
 * restore still stands and the next passphrase unlock tries again.
 */
export const useRestore = (userId: string) => {
  const dispatch = useAppDispatch();
  const [download] = useDownloadKeyBackupMutation();
  const [storeBackup] = useStoreKeyBackupMutation();
  const backup = useRef<KeyBackup | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [failures, setFailures] = useState(0);
  const [retryAt, setRetryAt] = useState(0);
  const waitSeconds = useCountdown(retryAt);

  const fetchBackup = async (): Promise<KeyBackup> => {
    backup.current ??= (await download().unwrap()).backup;
    return backup.current;
  };

  const restore = async (typed: string): Promise<boolean> => {
    if (busy || waitSeconds > 0) return false;
    setBusy(true);
    setError('');
    try {
      const stored = await fetchBackup();
      const opened = await withTypedSecret(stored, typed, (secret) => openKeyBackupBundle(stored, secret));
      await keepKeyBundle(userId, {
        encryption: { privateKey: opened.encryptionKey, publicKey: stored.publicKey },
        signing: opened.signingKey,
      });
      // Before the session's checks run with the new keys: they start from what the account trusted.
      if (stored.state) await takeSealedAccountState(userId, stored.state);
      dispatch(keysRestored());
      dispatch(api.util.invalidateTags(['Messages']));
      if (opened.upgradedBackup) {
        const upgraded = opened.upgradedBackup;
        backup.current = await storeBackup(upgraded)
          .unwrap()
          .then(
            () => upgraded,
            (failure: unknown) => {
              console.warn('The key backup could not be re-wrapped with Argon2id', failure);
              return stored;
            },
          );
      }
      return true;
    } catch (failure) {
      if (isApiError(failure) && failure.status === 404) {
        setError(noBackupText());
        return false;
      }
      const failed = failures + 1;
      setFailures(failed);
      setRetryAt(Date.now() + retryDelaySeconds(failed) * 1000);
      setError(unlockErrorText(failure, typed));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return { restore, busy, error, waitSeconds };
};
