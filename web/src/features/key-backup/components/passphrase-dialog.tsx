import { setBackupPassphrase } from '@veil/crypto';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import {
  PassphraseFields,
  passphraseErrors,
  type PassphraseErrors,
} from '../../../components/passphrase-fields.tsx';
import { useDownloadKeyBackupMutation, useStoreKeyBackupMutation } from '../api/key-backup.api.ts';
import { unlockErrorText, withTypedSecret } from '../unlock.ts';
import { SecretField } from './secret-field.tsx';

interface PassphraseDialogProps {
  hasPassphrase: boolean;
  /** The account's name: the passphrase should not lean on it. */
  username?: string;
  onClose: (changed: string | null) => void;
}

/**
 * Sets, changes or removes the backup's passphrase. The recovery key or the current passphrase
 * opens the backup in this browser; the data key inside is wrapped again under the new passphrase
 * (or no longer) and the backup replaced. The private key and the recovery key stay as they were.
 */
export const PassphraseDialog = ({ hasPassphrase, username, onClose }: PassphraseDialogProps) => {
  const [download] = useDownloadKeyBackupMutation();
  const [store] = useStoreKeyBackupMutation();
  const [current, setCurrent] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<PassphraseErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const { t } = useTranslation();

  const save = async (next: string | null) => {
    setBusy(true);
    setError('');
    try {
      const { backup } = await download().unwrap();
      const changed = await withTypedSecret(backup, current, (secret) =>
        setBackupPassphrase(backup, secret, next),
      );
      await store(changed).unwrap();
      onClose(next ? t('backup.passphraseSaved') : t('backup.passphraseRemoved'));
    } catch (failure) {
      setError(unlockErrorText(failure, current));
      setBusy(false);
    }
  };

  const context = username ? { username } : {};

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = await passphraseErrors(passphrase, repeat, context);
    setErrors(found);
    if (Object.keys(found).length === 0) void save(passphrase);
  };

  return (
    <ModalDialog labelledBy="passphrase-title" onClose={() => onClose(null)}>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <h2 id="passphrase-title">
          {hasPassphrase ? t('backup.passphraseChangeTitle') : t('backup.passphraseAddTitle')}
        </h2>
        <p className="panel__hint">
          {t(hasPassphrase ? 'backup.passphraseHintBoth' : 'backup.passphraseHint')}
        </p>
        <SecretField
          label={hasPassphrase ? t('backup.keyOrCurrentPassphrase') : t('backup.key')}
          value={current}
          onChange={setCurrent}
          autoFocus
        />
        <PassphraseFields
          label={t('passphrase.newLabel')}
          repeatLabel={t('passphrase.repeatNew')}
          passphrase={passphrase}
          repeat={repeat}
          errors={errors}
          context={context}
          onPassphrase={setPassphrase}
          onRepeat={setRepeat}
        />
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        {busy && <progress aria-label={t('backup.unlockingBackup')} />}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy || !current.trim()}>
            {busy ? t('backup.saving') : t('backup.savePassphrase')}
          </button>
          {hasPassphrase && (
            <button
              type="button"
              className="button"
              disabled={busy || !current.trim()}
              onClick={() => void save(null)}
            >
              {t('backup.removePassphrase')}
            </button>
          )}
          <button type="button" className="button" onClick={() => onClose(null)} disabled={busy}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
};
