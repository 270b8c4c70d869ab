import type { KeyStatus } from '@veil/contracts';
import { useState, type FormEvent } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { linkRequested } from '../../../lib/key-backup.slice.ts';
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
  const { restore, busy, error, waitSeconds } = useRestore(userId);
  const hasPassphrase = backup === undefined || (backup?.unlocks.includes('passphrase') ?? false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void restore(typed);
  };

  return (
    <ModalDialog labelledBy="restore-title" onClose={onNotNow}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <h2 id="restore-title">Restore your messages</h2>
        {backup !== null ? (
          <>
            <p className="panel__hint">
              This browser has no key for your account, so your messages cannot be read here yet. Enter your
              recovery key{hasPassphrase ? ' or your backup passphrase' : ''} to restore it. It stays in this
              browser.
            </p>
            <SecretField
              label={hasPassphrase ? 'Recovery key or passphrase' : 'Recovery key'}
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
                <progress aria-label="Unlocking your key" />
                <span>Unlocking your key…</span>
              </div>
            )}
          </>
        ) : (
          <p className="panel__hint">
            {noBackupText} If another browser of yours has it, link this one from there.
          </p>
        )}
        <div className="form__actions">
          {backup !== null && (
            <button
              type="submit"
              className="button button--primary"
              disabled={busy || waitSeconds > 0 || !typed.trim()}
            >
              {busy ? 'Restoring…' : waitSeconds > 0 ? `Try again in ${waitSeconds} s` : 'Restore'}
            </button>
          )}
          <button type="button" className="button" onClick={() => dispatch(linkRequested())} disabled={busy}>
            Link from another browser
          </button>
          <button type="button" className="button" onClick={onNotNow} disabled={busy}>
            Not now
          </button>
        </div>
        <p className="panel__hint">
          Lost your recovery key too?{' '}
          <button type="button" className="link-button" onClick={onStartFresh} disabled={busy}>
            I lost my key: start fresh
          </button>
        </p>
      </form>
    </ModalDialog>
  );
};
