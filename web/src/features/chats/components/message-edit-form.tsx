import { useTranslation } from 'react-i18next';
import { useRef, useState, type FormEvent } from 'react';
import {
  MentionPicker,
  useMentionPicker,
  type MentionedText,
  type MentionMember,
} from '../../mentions/index.ts';

interface MessageEditFormProps {
  /** The text as shown, with the mentions in it. */
  initial: MentionedText;
  /** Whom "@" offers (a group's other members). */
  members: readonly MentionMember[];
  /** Resolves true once saved. */
  onSave: (edited: MentionedText) => Promise<boolean>;
  onCancel: () => void;
}

/**
 * Edits a message in place, in a box that keeps its line breaks and grows with the text, as the
 * composer does: Enter or Save stores it, Shift+Enter starts a new line, Escape or Cancel leaves it
 * as it was. Mentions move with the text around them, and "@" picks another member, as in the
 * composer.
 */
export const MessageEditForm = ({ initial, members, onSave, onCancel }: MessageEditFormProps) => {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [saving, setSaving] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useMentionPicker({ value, members, input, onChange: setValue });
  const { text } = value;
  const unchanged = !text.trim() || text === initial.text;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (unchanged) return onCancel();
    setSaving(true);
    if (!(await onSave(value))) setSaving(false);
  };

  return (
    <form className="message-edit" onSubmit={(event) => void submit(event)}>
      <MentionPicker picker={picker} />
      <textarea
        ref={input}
        className="message-edit__input"
        dir="auto"
        aria-label={t('messages.editLabel')}
        autoFocus
        rows={Math.min(8, text.split('\n').length)}
        value={text}
        disabled={saving}
        {...picker.inputProps}
        onSelect={picker.trackCaret}
        onChange={(event) => picker.change(event.target.value, event.target.selectionStart)}
        onFocus={(event) => event.target.setSelectionRange(text.length, text.length)}
        onKeyDown={(event) => {
          if (picker.onKeyDown(event)) return;
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
