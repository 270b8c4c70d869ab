import {
  recordMadeEntries,
  forgetLoadedKeys,
  generateKeyBundle,
  keepKeyBundle,
  resetEntry,
  keysRestored,
} from '../../keys/index.ts';
import { useTranslation } from 'react-i18next';
import { createKeyBackup, generateRecoveryKey } from '@veil/crypto';
import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { RecoveryKeySetup, type RecoveryKeyChoice } from '../../../components/recovery-key-setup.tsx';
import { errorText } from '../../../lib/api-error.ts';
import { useResetKeysMutation } from '../api/key-backup.api.ts';

interface ResetKeysDialogProps {
  userId: string;
  username: string;
  onClose: (reset: boolean) => void;
}

/**
 * "I lost my key: start fresh": a confirmation that says what is lost, then a new recovery key
 * for the new keys. Only then are the new keys published (a `reset` entry of the key log) with
 * their backup, and kept in this browser.
 */
export const ResetKeysDialog = ({ userId, username, onClose }: ResetKeysDialogProps) => {
  const dispatch = useAppDispatch();
  const [confirmed, setConfirmed] = useState(false);
  const [recoveryKey] = useState(generateRecoveryKey);
  const [resetKeys] = useResetKeysMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const { t } = useTranslation();

  const reset = async ({ passphrase }: RecoveryKeyChoice) => {
    setBusy(true);
    setError('');
    try {
      const bundle = await generateKeyBundle();
      const backup = await createKeyBackup({
        ...bundle.encryption,
        signingKey: bundle.signing,
        recoveryKey,
        passphrase,
      });
      const entry = await resetEntry(userId, bundle);
      // Recorded before it is sent: this browser's own-log check must know it made it.
      await recordMadeEntries(userId, [entry.hash]);
      await resetKeys({ entry, backup }).unwrap();
      await keepKeyBundle(userId, bundle);
      // What this page remembered of the old keys goes: the next send and read use the new ones.
      forgetLoadedKeys();
      dispatch(keysRestored());
      onClose(true);
    } catch (failure) {
      setError(errorText(failure) || t('backup.resetFailed'));
      setBusy(false);
    }
  };

  return (
    <ModalDialog labelledBy="reset-keys-title" onClose={() => onClose(false)} className="panel panel--wide">
      {confirmed ? (
        <RecoveryKeySetup
          recoveryKey={recoveryKey}
          username={username}
          titleId="reset-keys-title"
          confirmLabel={t('backup.resetConfirm')}
          busy={busy}
          busyLabel={t('backup.resetting')}
          error={error}
          onConfirm={(choice) => void reset(choice)}
          onBack={() => onClose(false)}
          backLabel={t('common.cancel')}
        />
      ) : (
        <div className="form">
          <h2 id="reset-keys-title">{t('backup.startFreshLink')}</h2>
          <p className="status status--error">{t('backup.resetWarning')}</p>
          <p className="panel__hint">{t('backup.resetHint')}</p>
          <div className="form__actions">
            <button type="button" className="button button--danger" onClick={() => setConfirmed(true)}>
              {t('backup.startFresh')}
            </button>
            <button type="button" className="button" onClick={() => onClose(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
};
