import { useTranslation } from 'react-i18next';
import type { KeyStatus } from '@veil/contracts';
import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { linkRequested } from '../../keys/index.ts';
import { noBackupText, useRestore } from '../hooks/use-restore.ts';
import { SecretField } from './secret-field.tsx';

interface RestoreDialogProps {
  userId: string;
  /** The backup's summary; null when there is none, undefined when that is not known. */
  backup: KeyStatus['backup'] | undefined;
  onNotNow: () => void;
  /** "I lost my key: start fresh". */
  onStartFresh: () => void;
}

/**
 * "Restore your messages": this browser has no key for the account. The recovery key (any
 * case, spaces or dashes) or the passphrase restores it from the backup, or another browser that
 * has it links this one (the device-link feature); "Not now" leaves the messages saying why
 * they cannot be read.
 */
export const RestoreDialog = ({ userId, backup, onNotNow, onStartFresh }: RestoreDialogProps) => {
  const dispatch = useAppDispatch();
  const [typed, setTyped] = useState('');
  const { t } = useTranslation();
  const { restore, busy, error, waitSeconds } = useRestore(userId);
  const hasPassphrase = backup === undefined || (backup?.unlocks.includes('passphrase') ?? false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void restore(typed);
  };

  return (
    <ModalDialog labelledBy="restore-title" onClose={onNotNow}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <h2 id="restore-title">{t('backup.restoreTitle')}</h2>
        {backup !== null ? (
          <>
            <p className="panel__hint">
              {t(hasPassphrase ? 'backup.restoreHintPassphrase' : 'backup.restoreHint')}
            </p>
            <SecretField
              label={hasPassphrase ? t('backup.keyOrPassphrase') : t('backup.key')}
              value={typed}
              onChange={setTyped}
              autoFocus
            />
            {error && (
              <p className="form__error" role="alert">
                {error}
              </p>
            )}
            {busy && (
              <div className="restore__progress" role="status">
                <progress aria-label={t('backup.unlocking')} />
                <span>{t('backup.unlockingNow')}</span>
              </div>
            )}
          </>
        ) : (
          <p className="panel__hint">
            {noBackupText()} {t('backup.linkElsewhere')}
          </p>
        )}
        <div className="form__actions">
          {backup !== null && (
            <button
              type="submit"
              className="button button--primary"
              disabled={busy || waitSeconds > 0 || !typed.trim()}
            >
              {busy
                ? t('backup.restoring')
                : waitSeconds > 0
                  ? t('backup.tryAgainIn', { count: waitSeconds })
                  : t('backup.restore')}
            </button>
          )}
          <button type="button" className="button" onClick={() => dispatch(linkRequested())} disabled={busy}>
            {t('backup.linkFromOther')}
          </button>
          <button type="button" className="button" onClick={onNotNow} disabled={busy}>
            {t('backup.notNow')}
          </button>
        </div>
        <p className="panel__hint">
          {t('backup.lostToo')}{' '}
          <button type="button" className="link-button" onClick={onStartFresh} disabled={busy}>
            {t('backup.startFreshLink')}
          </button>
        </p>
      </form>
    </ModalDialog>
  );
};
