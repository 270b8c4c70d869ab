import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { SendIcon } from '../../../components/icons.tsx';

interface MessageComposerProps {
  /** Resolves true once the message is sent. */
  onSend: (text: string) => Promise<boolean>;
  onKeystroke: () => void;
  /** Beside the input: the attach button. */
  accessory?: ReactNode;
  /** Files are waiting to be sent: a message without text may go. */
  canSendEmpty?: boolean;
}

/** Text input and send; Enter sends, empty or blank text does nothing. */
export const MessageComposer = ({
  onSend,
  onKeystroke,
  accessory,
  canSendEmpty = false,
}: MessageComposerProps) => {
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && !canSendEmpty) return;
    const sending = text;
    setText('');
    // On failure the text comes back, unless the user already typed something new.
    if (!(await onSend(sending))) setText((now) => now || sending);
    input.current?.focus();
  };

  return (
    <form className="composer" onSubmit={(e) => void submit(e)}>
      {accessory}
      <input
        ref={input}
        className="composer__input"
        type="text"
        aria-label="Message"
        placeholder="Type a message"
        autoComplete="off"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onKeystroke();
        }}
      />
      <button type="submit" className="button button--primary composer__send" aria-label="Send">
        <SendIcon />
      </button>
    </form>
  );
};
