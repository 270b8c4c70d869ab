import { memo, useCallback } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { restoreRequested } from '../../../lib/key-backup.slice.ts';
import { ReplyIcon } from '../../../components/icons.tsx';
import type { DisplayMessage } from '../../../lib/crypto.ts';
import { noKeyHereText } from '../../../lib/read-state.ts';
import { replyPreview } from '../messages.model.ts';
import { AttachmentList } from '../attachments/attachment-view.tsx';
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

const noKeyHereLead = noKeyHereText.replace(/restore it$/, '');

/** The text, or why it cannot be read here; with no key here, the way to restore it. */
const MessageText = ({ message }: { message: DisplayMessage }) => {
  const dispatch = useAppDispatch();
  const state = message.readState;
  if (state === 'read')
    return (
      <p className="message__text" data-testid="message-text">
        {message.decryptedContent}
      </p>
    );
  return (
    <p className="message__text message__text--unread" data-testid="message-text" data-read-state={state}>
      {state === 'no-key-here' ? (
        <>
          {noKeyHereLead}
          <button type="button" className="link-button" onClick={() => dispatch(restoreRequested())}>
            restore it
          </button>
        </>
      ) : (
        message.decryptedContent
      )}
    </p>
  );
};

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
        {message.attachments && <AttachmentList attachments={message.attachments} />}
        {(message.decryptedContent || !message.attachments) && <MessageText message={message} />}
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
