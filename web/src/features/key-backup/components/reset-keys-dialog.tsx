import { createKeyBackup, generateRecoveryKey } from '@veil/crypto';
import { useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { RecoveryKeySetup, type RecoveryKeyChoice } from '../../../components/recovery-key-setup.tsx';
import { forgetLoadedKeys } from '../../../lib/account-keys.ts';
import { errorText } from '../../../lib/api-error.ts';
import { publicKeys } from '../../../lib/crypto.ts';
import { generateKeyBundle, keepKeyBundle } from '../../../lib/identity-keys.ts';
import { keysRestored } from '../../../lib/key-backup.slice.ts';
import { useResetKeysMutation } from '../api/key-backup.api.ts';

interface ResetKeysDialogProps {
  userId: string;
  username: string;
  onClose: (reset: boolean) => void;
}

export const resetWarningText =
  'Your account gets new keys. Messages sent to you until now stay unreadable in every browser that does ' +
  'not have your old key, and everyone you chat with is told that your key changed.';

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
      await resetKeys({
        publicKey: bundle.encryption.publicKey,
        signingKey: bundle.signing.publicKey,
        backup,
      }).unwrap();
      await keepKeyBundle(userId, bundle);
      // What this page remembered of the old keys goes: the next send and read use the new ones.
      forgetLoadedKeys();
      publicKeys.forget(userId);
      dispatch(keysRestored());
      onClose(true);
    } catch (failure) {
      setError(errorText(failure) || 'Your keys could not be reset. Please try again.');
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
          confirmLabel="Reset my keys"
          busy={busy}
          busyLabel="Resetting…"
          error={error}
          onConfirm={(choice) => void reset(choice)}
          onBack={() => onClose(false)}
          backLabel="Cancel"
        />
      ) : (
        <div className="form">
          <h2 id="reset-keys-title">I lost my key: start fresh</h2>
          <p className="status status--error">{resetWarningText}</p>
          <p className="panel__hint">
            Do this only if no browser of yours still has your key and you have lost your recovery key. Next,
            you save a recovery key for the new keys.
          </p>
          <div className="form__actions">
            <button type="button" className="button button--danger" onClick={() => setConfirmed(true)}>
              Start fresh
            </button>
            <button type="button" className="button" onClick={() => onClose(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
};
