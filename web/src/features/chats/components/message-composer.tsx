import { useTranslation } from 'react-i18next';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { MessageMention } from '@veil/crypto';
import { SendIcon } from '../../../components/icons.tsx';
import {
  MentionPicker,
  useMentionPicker,
  type MentionedText,
  type MentionMember,
} from '../../mentions/index.ts';

interface MessageComposerProps {
  /** Resolves true once the message is sent (or safely queued to be sent). */
  onSend: (text: string, mentions: MessageMention[]) => Promise<boolean>;
  onKeystroke: () => void;
  /** Beside the input: the attach button. */
  accessory?: ReactNode;
  /** Files are waiting to be sent: a message without text may go. */
  canSendEmpty?: boolean;
  /** The chat's draft, with the members picked in it: undefined while it loads. */
  draft?: MentionedText | undefined;
  /** What the box holds, after every change once the draft has loaded (to keep it as the draft). */
  onTextChange?: (value: MentionedText) => void;
  /** Who "@" offers (a group's other members); none: no picker. */
  members?: readonly MentionMember[];
}

const nobody: readonly MentionMember[] = [];

/**
 * The message box: Enter sends, Shift+Enter starts a new line, empty or blank text does nothing.
 * It grows with its text up to six lines (its CSS `max-height`), then scrolls.
 */
export const MessageComposer = ({
  onSend,
  onKeystroke,
  accessory,
  canSendEmpty = false,
  draft,
  onTextChange,
  members = nobody,
}: MessageComposerProps) => {
  const [text, setText] = useState(draft?.text ?? '');
  // The members picked in this text.
  const [mentions, setMentions] = useState<MessageMention[]>(draft?.mentions ?? []);
  const input = useRef<HTMLTextAreaElement>(null);
  // Whether the draft is in the box: until then, what the box holds is not kept over it.
  const [restored, setRestored] = useState(draft !== undefined);
  useEffect(() => {
    if (restored || draft === undefined) return;
    // Typed while the draft loaded: what was typed wins.
    if (!input.current?.value) {
      setText(draft.text);
      setMentions(draft.mentions);
    }
    setRestored(true);
  }, [draft, restored]);
  useEffect(() => {
    if (restored) onTextChange?.({ text, mentions });
  }, [text, mentions, restored, onTextChange]);
  const { t } = useTranslation();
  const picker = useMentionPicker({
    value: { text, mentions },
    members,
    input,
    onChange: (next) => {
      setText(next.text);
      setMentions(next.mentions);
    },
  });

  useLayoutEffect(() => {
    const box = input.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${box.scrollHeight + box.offsetHeight - box.clientHeight}px`;
  }, [text]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim() && !canSendEmpty) return;
    const sending = { text, mentions };
    setText('');
    setMentions([]);
    // On failure the text comes back, unless the user already typed something new.
    if (!(await onSend(sending.text, sending.mentions)) && !input.current?.value) {
      setText(sending.text);
      setMentions(sending.mentions);
    }
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(event)) return;
    // Enter while composing (an input method's candidate list) picks the candidate instead.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <form className="composer" onSubmit={(e) => void submit(e)}>
      <MentionPicker picker={picker} />
      {accessory}
      <textarea
        ref={input}
        className="composer__input"
        dir="auto"
        aria-label={t('messages.composer')}
        aria-description={t('messages.composerHint')}
        placeholder={t('messages.composerPlaceholder')}
        autoComplete="off"
        rows={1}
        value={text}
        {...picker.inputProps}
        onKeyDown={onKeyDown}
        onSelect={picker.trackCaret}
        onChange={(e) => {
          picker.change(e.target.value, e.target.selectionStart);
          onKeystroke();
        }}
      />
      <button type="submit" className="button button--primary composer__send" aria-label={t('messages.send')}>
        <SendIcon />
      </button>
    </form>
  );
};
