import { useTranslation } from 'react-i18next';
import { useState, type FormEvent } from 'react';

interface MessageEditFormProps {
  initial: string;
  /** Resolves true once saved. */
  onSave: (text: string) => Promise<boolean>;
  onCancel: () => void;
}

/**
 * Edits a message in place, in a box that keeps its line breaks and grows with the text, as the
 * composer does: Enter or Save stores it, Shift+Enter starts a new line, Escape or Cancel leaves it
 * as it was.
 */
export const MessageEditForm = ({ initial, onSave, onCancel }: MessageEditFormProps) => {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const unchanged = !text.trim() || text === initial;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (unchanged) return onCancel();
    setSaving(true);
    if (!(await onSave(text))) setSaving(false);
  };

  return (
    <form className="message-edit" onSubmit={(event) => void submit(event)}>
      <textarea
        className="message-edit__input"
        dir="auto"
        aria-label={t('messages.editLabel')}
        autoFocus
        rows={Math.min(8, text.split('\n').length)}
        value={text}
        disabled={saving}
        onChange={(event) => setText(event.target.value)}
        onFocus={(event) => event.target.setSelectionRange(text.length, text.length)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void submit(event);
          }
        }}
      />
      <div className="message-edit__buttons">
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? t('messages.saving') : t('messages.save')}
        </button>
      </div>
    </form>
  );
};
