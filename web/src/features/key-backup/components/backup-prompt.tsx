interface BackupPromptProps {
  onCreate: () => void;
  onDismiss: () => void;
}

/** A gentle note for an account without a backup: its messages live in this browser only. */
export const BackupPrompt = ({ onCreate, onDismiss }: BackupPromptProps) => (
  <aside className="backup-prompt" aria-label="Message backup">
    <p>
      <strong>Protect your messages: create a recovery key.</strong> Without one, your messages can be read in
      this browser only.
    </p>
    <div className="form__actions">
      <button type="button" className="button button--primary" onClick={onCreate}>
        Create recovery key
      </button>
      <button type="button" className="button" onClick={onDismiss}>
        Not now
      </button>
    </div>
  </aside>
);
