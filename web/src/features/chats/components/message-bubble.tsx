import { useTranslation } from 'react-i18next';
import { memo, useCallback, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { restoreRequested, type ChatContext } from '../../keys/index.ts';
import { ForwardIcon, ReplyIcon, TimerIcon } from '../../../components/icons.tsx';
import {
  type DisplayMessage,
  type OrderFlag,
  canChangeForEveryone,
  replyPreview,
} from '../../messages/index.ts';
import type { MessageActions } from '../hooks/use-message-actions.ts';
import { AttachmentList } from '../../attachments/index.ts';
import { MessageActionsMenu } from './message-actions-menu.tsx';
import { ForwardDialog } from './forward-dialog.tsx';
import { ReportDialog, earlierForReport, isReportable } from '../../reports/index.ts';
import { MessageEditForm } from './message-edit-form.tsx';
import { MentionedTextView, withCurrentNames, type MentionMember } from '../../mentions/index.ts';
import { ReactionBar } from './reaction-bar.tsx';
import { SealStatus } from './seal-status.tsx';
import { SeenTicks } from './seen-ticks.tsx';

interface MessageBubbleProps {
  message: DisplayMessage;
  mine: boolean;
  /** Group chats name the sender of others' messages. */
  senderName: string | null;
  /** Whose message this one replies to ("You" for one's own). */
  replyAuthor: string | null;
  seen: boolean;
  /** Observes the element for read receipts; only given for others' unseen messages. */
  track: ((messageId: string, element: Element | null) => void) | null;
  onReply: (message: DisplayMessage) => void;
  myId: string;
  /** Who a user id is, for reactions and the actions menu's name. */
  nameOf: (userId: string) => string;
  actions: MessageActions;
  /** Where it is shown: who it should have been sealed for. */
  context: ChatContext;
  /**
   * The message replied to as this history shows it, checked, when it is loaded; else the copy
   * that came with the reply, whose text is shown only if its own check is not known to fail.
   */
  quoted: DisplayMessage | null;
  /** What the chat's order and replay rules say of it; absent: nothing. */
  orderFlag?: OrderFlag | undefined;
  /** The chat's messages as shown now (read when a report is opened, not at every render). */
  shownMessages: () => readonly DisplayMessage[];
  /** A member's current name for a mention; undefined: not a member (the mention stays text). */
  mentionNameOf: (userId: string) => string | undefined;
  /** Whom "@" offers in an edit. */
  mentionMembers: readonly MentionMember[];
}

/** The text, or why it cannot be read here; with no key here, the way to restore it. */
const MessageText = ({
  message,
  mentionNameOf,
  myId,
}: {
  message: DisplayMessage;
  mentionNameOf: (userId: string) => string | undefined;
  myId: string;
}) => {
  const dispatch = useAppDispatch();
  const { t } = useTranslation();
  const state = message.readState;
  if (message.deleted && state !== 'unverified')
    return (
      <p className="message__text message__text--deleted" data-testid="message-text">
        {t('messages.deleted')}
      </p>
    );
  if (state === 'read')
    return (
      // The text's own direction, whatever the app's (an English line in an Arabic UI).
      <p
        className={`message__text${message.call ? ' message__text--call' : ''}`}
        data-testid="message-text"
        dir="auto"
      >
        {message.call ? (
          message.decryptedContent
        ) : (
          <MentionedTextView
            text={message.decryptedContent}
            mentions={message.mentions}
            nameOf={mentionNameOf}
            myId={myId}
          />
        )}
      </p>
    );
  return (
    <p className="message__text message__text--unread" data-testid="message-text" data-read-state={state}>
      {state === 'no-key-here' ? (
        <>
          {t('messages.noKeyHere')}
          <button type="button" className="link-button" onClick={() => dispatch(restoreRequested())}>
            {t('messages.restoreIt')}
          </button>
        </>
      ) : state === 'key-reset' ? (
        t('messages.keyReset')
      ) : state === 'unverified' ? (
        // Why its signature does not hold (`lib/signature-texts.ts`), never its text.
        message.decryptedContent
      ) : (
        t('messages.unreadable')
      )}
    </p>
  );
};

/** One formatter per language: a chat renders hundreds of times. */
const timeFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormat = (language: string) => {
  let format = timeFormats.get(language);
  if (!format)
    timeFormats.set(
      language,
      (format = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' })),
    );
  return format;
};

export const MessageBubble = memo(function MessageBubble({
  message,
  mine,
  senderName,
  replyAuthor,
  seen,
  track,
  onReply,
  myId,
  nameOf,
  actions,
  context,
  quoted: quotedMessage,
  orderFlag,
  shownMessages,
  mentionNameOf,
  mentionMembers,
}: MessageBubbleProps) {
  const { _id: id } = message;
  const [editing, setEditing] = useState(false);
  const [forwarding, setForwarding] = useState(false);
  const [reporting, setReporting] = useState<DisplayMessage[] | null>(null);
  const { t, i18n } = useTranslation();
  const ref = useCallback((element: HTMLLIElement | null) => track?.(id, element), [track, id]);
  const quoted = quotedMessage?.deleted ? t('messages.deleted') : (quotedMessage?.decryptedContent ?? '');
  const time = timeFormat(i18n.resolvedLanguage ?? 'en').format(new Date(message.createdAt));
  const sender = mine ? t('common.you') : nameOf(message.sender._id);
  const changeable = canChangeForEveryone(message, myId);
  const readable = !message.deleted && message.readState === 'read';
  return (
    <li
      ref={ref}
      className={`message ${mine ? 'message--mine' : 'message--theirs'}`}
      data-message-id={id}
      data-testid="message"
    >
      <div className="message__bubble">
        {/* Who sent it, said first; groups show others' names, elsewhere only a screen reader needs it. */}
        {senderName ? (
          <span className="message__sender">{senderName}</span>
        ) : (
          <span className="visually-hidden">{sender}: </span>
        )}
        {message.replyTo && (
          <blockquote className="message__quote" data-testid="message-quote">
            {replyAuthor && <span className="message__quote-author">{replyAuthor}</span>}
            {replyPreview(quoted)}
            {quoted.length > replyPreview(quoted).length ? '…' : ''}
          </blockquote>
        )}
        {message.forwarded && !message.deleted && (
          <span className="message__forwarded" data-testid="forwarded-label">
            <ForwardIcon />
            {t('messages.forwarded')}
          </span>
        )}
        {message.attachments && !message.deleted && <AttachmentList attachments={message.attachments} />}
        {editing ? (
          <MessageEditForm
            // The names as shown now: the edit starts from what the reader sees.
            initial={withCurrentNames(message.decryptedContent, message.mentions, mentionNameOf)}
            members={mentionMembers}
            onCancel={() => setEditing(false)}
            onSave={async ({ text, mentions }) => {
              const saved = await actions.edit(message, text, mentions);
              if (saved) setEditing(false);
              return saved;
            }}
          />
        ) : (
          (message.decryptedContent || !message.attachments) && (
            <MessageText message={message} mentionNameOf={mentionNameOf} myId={myId} />
          )
        )}
        <span className="message__meta">
          {message.editedAt && !message.deleted && (
            <span className="message__edited">{t('messages.edited')}</span>
          )}
          {message.expiresAt && !message.deleted && (
            <span
              className="message__expires"
              role="img"
              aria-label={t('disappearing.mark')}
              title={t('disappearing.mark')}
              data-testid="disappearing-mark"
            >
              <TimerIcon />
            </span>
          )}
          <time dateTime={message.createdAt}>{time}</time>
          {mine && <SeenTicks seen={seen} />}
        </span>
        <SealStatus message={message} context={context} nameOf={nameOf} myId={myId} orderFlag={orderFlag} />
        <ReactionBar
          reactionTexts={message.reactionTexts}
          myId={myId}
          nameOf={nameOf}
          onToggle={(emoji) => void actions.toggleReaction(message, emoji)}
        />
      </div>
      {!message.deleted && (
        <button
          type="button"
          className="icon-button message__reply"
          aria-label={t('messages.replyTo', { name: sender, time })}
          onClick={() => onReply(message)}
        >
          <ReplyIcon />
        </button>
      )}
      <MessageActionsMenu
        label={t('messages.actionsOf', { name: mine ? t('common.youLower') : sender, time })}
        {...(!message.deleted && {
          onReply: () => onReply(message),
          onReact: (emoji: string) => void actions.toggleReaction(message, emoji),
        })}
        {...(readable && {
          onCopy: () => void actions.copy(message),
          onForward: () => setForwarding(true),
        })}
        {...(changeable && readable && !message.call && { onEdit: () => setEditing(true) })}
        onDeleteForMe={() => void actions.deleteForMe(message)}
        {...(isReportable(message, myId) && {
          onReport: () => setReporting(earlierForReport(shownMessages(), id)),
        })}
        {...(changeable && {
          onDeleteForEveryone: () => {
            if (window.confirm(t('messages.deleteForEveryoneConfirm')))
              void actions.deleteForEveryone(message);
          },
        })}
      />
      {reporting && (
        <ReportDialog
          message={message}
          senderName={sender}
          earlier={reporting}
          onClose={() => setReporting(null)}
        />
      )}
      {forwarding && (
        <ForwardDialog
          text={message.decryptedContent}
          onForward={(to) => actions.forward(message, to)}
          onClose={() => setForwarding(false)}
        />
      )}
    </li>
  );
});
