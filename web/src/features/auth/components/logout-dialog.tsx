import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useModalDialog } from '../../../components/modal-dialog.tsx';
import { useLogout } from '../hooks/use-logout.ts';

interface LogoutDialogProps {
  onClose: () => void;
}

/**
 * Confirms a logout and offers to remove this account's keys from the browser (off by default,
 * so logging back in here still reads every message). A modal dialog: the confirm button has
 * the focus, Escape or Cancel closes it.
 */
export const LogoutDialog = ({ onClose }: LogoutDialogProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const logout = useLogout();
  const [removeKeys, setRemoveKeys] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const { t } = useTranslation();

  useModalDialog(dialog);
  useEffect(() => {
    confirmButton.current?.focus(); // showModal would focus the checkbox, the first control
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await logout({ removeKeys });
      onClose();
    } catch (failure) {
      console.error('Logout failed', failure);
      setError(t('logout.removeFailed'));
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="panel"
      aria-labelledby="logout-title"
      aria-describedby="logout-keys-hint"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="logout-title">{t('logout.title')}</h2>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={removeKeys}
            onChange={(event) => setRemoveKeys(event.target.checked)}
            aria-describedby="logout-keys-hint"
          />
          <span>{t('logout.removeKeys')}</span>
        </label>
        <p id="logout-keys-hint" className="panel__hint">
          {t('logout.keysHint')}
        </p>
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <div className="form__actions">
          <button ref={confirmButton} type="submit" className="button button--primary" disabled={busy}>
            {removeKeys ? t('logout.confirmRemoving') : t('logout.confirm')}
          </button>
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
};
