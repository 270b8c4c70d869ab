import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLogout } from '../hooks/use-logout.ts';

/** Veil's texts (the spec has no logout dialog). */
const texts = {
  title: 'Log out',
  removeKeys: "Remove this browser's keys",
  keysHint:
    'Your private key stays on this browser unless you remove it, so your messages can be read when you log in here again. ' +
    "Once removed, this account's messages cannot be read on this browser again unless the key is restored.",
  confirm: 'Log out',
  confirmRemoving: 'Remove keys and log out',
  removeFailed: "This browser's keys could not be removed. You are still logged in.",
} as const;

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

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    confirmButton.current?.focus(); // showModal would focus the checkbox, the first control
    return () => element?.close();
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
      setError(texts.removeFailed);
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
      <h2 id="logout-title">{texts.title}</h2>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={removeKeys}
            onChange={(event) => setRemoveKeys(event.target.checked)}
            aria-describedby="logout-keys-hint"
          />
          <span>{texts.removeKeys}</span>
        </label>
        <p id="logout-keys-hint" className="panel__hint">
          {texts.keysHint}
        </p>
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <div className="form__actions">
          <button ref={confirmButton} type="submit" className="button button--primary" disabled={busy}>
            {removeKeys ? texts.confirmRemoving : texts.confirm}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
};
