import { memo, useCallback } from 'react';
import { ReplyIcon } from '../../../components/icons.tsx';
import type { DisplayMessage } from '../../../lib/crypto.ts';
import { replyPreview } from '../messages.model.ts';
import { SeenTicks } from './seen-ticks.tsx';

interface MessageBubbleProps {
  message: DisplayMessage;
  mine: boolean;
  /** Group chats name the sender of others' messages. */
  senderName: string | null;
  seen: boolean;
  /** Observes the element for read receipts; only given for others' unseen messages. */
  track: ((messageId: string, element: Element | null) => void) | null;
  onReply: (message: DisplayMessage) => void;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

export const MessageBubble = memo(function MessageBubble({
  message,
  mine,
  senderName,
  seen,
  track,
  onReply,
}: MessageBubbleProps) {
  const { _id: id } = message;
  const ref = useCallback((element: HTMLLIElement | null) => track?.(id, element), [track, id]);
  const quoted = message.replyTo?.decryptedContent ?? '';
  return (
    <li
      ref={ref}
      className={`message ${mine ? 'message--mine' : 'message--theirs'}`}
      data-message-id={id}
      data-testid="message"
    >
      <div className="message__bubble">
        {senderName && <span className="message__sender">{senderName}</span>}
        {message.replyTo && (
          <blockquote className="message__quote" data-testid="message-quote">
            {replyPreview(quoted)}
            {quoted.length > replyPreview(quoted).length ? '…' : ''}
          </blockquote>
        )}
        <p className="message__text" data-testid="message-text">
          {message.decryptedContent}
        </p>
        <span className="message__meta">
          <time dateTime={message.createdAt}>{timeFormat.format(new Date(message.createdAt))}</time>
          {mine && <SeenTicks seen={seen} />}
        </span>
      </div>
      <button
        type="button"
        className="icon-button message__reply"
        aria-label="Reply"
        onClick={() => onReply(message)}
      >
        <ReplyIcon />
      </button>
    </li>
  );
});
