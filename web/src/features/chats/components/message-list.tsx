import { useTranslation } from 'react-i18next';
import type { ChatView, PublicUser } from '@veil/contracts';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import {
  type DisplayMessage,
  orderFlags,
  chatContextOf,
  chatTitle,
  isSeenByOthers,
  otherMemberIds,
  messageDiscarded,
  retryRequested,
  selectOutbox,
  followNewMessages,
} from '../../messages/index.ts';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { useHistoryScroll } from '../hooks/use-history-scroll.ts';
import { useJumpToMessage } from '../hooks/use-jump-to-message.ts';
import { useMessageActions } from '../hooks/use-message-actions.ts';
import { useOlderMessages } from '../hooks/use-older-messages.ts';
import { useMessageAnnouncements } from '../hooks/use-message-announcements.ts';
import { useSeenReporter } from '../hooks/use-seen-reporter.ts';
import { dayLabel, firstUnreadId, startsDay } from '../chat-summary.model.ts';
import { timelineOf } from '../group-notices.ts';
import type { ShownGroup } from '../group-notice-checks.ts';
import { GroupNoticeLine } from './group-notice-line.tsx';
import { useBlockedIds } from '../../../lib/blocks.api.ts';
import { BlockedMessage } from './blocked-message.tsx';
import { MessageBubble } from './message-bubble.tsx';
import { PendingMessage } from './pending-message.tsx';
import { ScrollToNewest } from './scroll-to-newest.tsx';
import { useMentionMembers } from '../../mentions/index.ts';

interface MessageListProps {
  chat: ChatView;
  me: PublicUser;
  messages: DisplayMessage[];
  hasMore: boolean;
  /** A group's verified chain: its notices are checked against it (undefined while it is checked). */
  group?: ShownGroup | undefined;
  /** Unread messages when the chat opened (undefined until known): where "New messages" goes. */
  unreadAtOpen: number | undefined;
  onReply: (message: DisplayMessage) => void;
  /** A message to open the chat at (a search result), with its place in the history. */
  focus?: { messageId: string; seq?: number } | undefined;
}

/** The open chat's messages, oldest at the top; scrolling up loads older pages. */
export const MessageList = ({
  chat,
  me,
  messages,
  hasMore,
  group,
  unreadAtOpen,
  onReply,
  focus,
}: MessageListProps) => {
  const myId = me._id;
  const blockedIds = useBlockedIds();
  const [container, setContainer] = useState<HTMLOListElement | null>(null);
  const { loadOlder, loading } = useOlderMessages({ chatId: chat._id, userId: myId });
  const onNeedOlder = useCallback((seq: number) => void loadOlder(seq), [loadOlder]);
  const { onScroll } = useHistoryScroll({ container, messages, myId, hasMore, onNeedOlder });
  useJumpToMessage({
    container,
    messages,
    hasMore,
    messageId: focus?.messageId,
    seq: focus?.seq,
    loadOlder,
  });
  const { track, reportNow } = useSeenReporter(chat._id, container);
  const others = otherMemberIds(chat, myId);
  // Order and replay are judged over every message this history holds (`message-order.ts`).
  const flags = useMemo(() => orderFlags(messages), [messages]);
  const { actions, error, clearError } = useMessageActions(chat, me);
  const { t, i18n } = useTranslation();
  const nameOf = useCallback(
    (userId: string) => chat.participants.find((p) => p._id === userId)?.username ?? t('common.formerMember'),
    [chat.participants, t],
  );
  const mention = useMentionMembers(chat, me);
  const dividerBefore = useNewMessagesDivider(messages, myId, unreadAtOpen);
  const announcements = useMessageAnnouncements(messages, myId, nameOf);
  const dispatch = useAppDispatch();
  const outbox = useAppSelector(selectOutbox).items;
  const pending = outbox.filter((item) => item.chatId === chat._id);
  const onRetry = useCallback((id: string) => dispatch(retryRequested(id)), [dispatch]);
  const onDiscard = useCallback((id: string) => dispatch(messageDiscarded(id)), [dispatch]);
  const context = useMemo(() => chatContextOf(chat, myId, group), [chat, myId, group]);
  // Read by a bubble when a report opens: one stable function, so new messages re-render no bubble.
  const shown = useRef(messages);
  shown.current = messages;
  const shownMessages = useCallback(() => shown.current, []);
  const positionOf = new Map(messages.map((message, index) => [message._id, index] as const));
  // A quote shows the replied message as checked here when it is loaded (a forgery's text never).
  const quotedOf = (message: DisplayMessage) =>
    message.replyTo ? (messages[positionOf.get(message.replyTo._id) ?? -1] ?? message.replyTo) : null;

  // A message arriving while its chat is open counts as seen at once (docs/web.md, "Realtime").
  useEffect(() => {
    return followNewMessages(({ message }) => {
      if (message.chat === chat._id && message.sender._id !== myId) reportNow(message._id);
    });
  }, [chat._id, myId, reportNow]);

  return (
    // The loading indicator floats over the list rather than being a row in it: a row would
    // change the list's height and throw off the scroll position kept while older pages load.
    <div className="message-list-frame">
      {loading && (
        <div className="message-list__loading">
          <Spinner label={t('messages.loadingOlder')} />
        </div>
      )}
      <ol
        className="message-list"
        ref={setContainer}
        onScroll={onScroll}
        aria-label={t('messages.list', { chat: chatTitle(chat) })}
        tabIndex={0}
      >
        {messages.length === 0 && pending.length === 0 && (
          <li className="empty-state">{t('messages.none')}</li>
        )}
        {timelineOf(messages, chat.notices ?? [], hasMore).map((item) => {
          if (item.kind === 'notice')
            return (
              <GroupNoticeLine
                key={`${item.notice.kind}-${item.notice.at}-${item.notice.members.map((m) => m._id).join()}`}
                notice={item.notice}
                group={group}
                myId={myId}
              />
            );
          const { message } = item;
          const mine = message.sender._id === myId;
          const previous = messages[(positionOf.get(message._id) ?? 0) - 1];
          return (
            <Fragment key={message._id}>
              {startsDay(message, previous) && (
                <li className="history-marker" data-testid="day-separator">
                  {dayLabel(message.createdAt, new Date(), i18n.resolvedLanguage)}
                </li>
              )}
              {message._id === dividerBefore && (
                <li className="history-marker history-marker--new" data-testid="new-messages">
                  {t('messages.newMessages')}
                </li>
              )}
              <BlockedMessage
                messageId={message._id}
                collapsed={chat.isGroupChat && blockedIds.has(message.sender._id)}
              >
                <MessageBubble
                  message={message}
                  mine={mine}
                  replyAuthor={
                    message.replyTo
                      ? message.replyTo.sender._id === myId
                        ? t('common.you')
                        : nameOf(message.replyTo.sender._id)
                      : null
                  }
                  senderName={chat.isGroupChat && !mine ? nameOf(message.sender._id) : null}
                  seen={mine && isSeenByOthers(message, others)}
                  track={!mine && !message.seenBy[myId] ? track : null}
                  onReply={onReply}
                  myId={myId}
                  nameOf={nameOf}
                  actions={actions}
                  context={context}
                  quoted={quotedOf(message)}
                  orderFlag={flags.get(message._id)}
                  shownMessages={shownMessages}
                  mentionNameOf={mention.nameOf}
                  mentionMembers={mention.members}
                />
              </BlockedMessage>
            </Fragment>
          );
        })}
        {pending.map((item) => (
          <PendingMessage key={item.clientMessageId} item={item} onRetry={onRetry} onDiscard={onDiscard} />
        ))}
      </ol>
      {/* The screen reader's view of the chat: new messages from others, read out politely. */}
      <div
        role="log"
        aria-label={t('messages.announcements')}
        className="visually-hidden"
        data-testid="message-log"
      >
        {announcements.map((announcement) => (
          <p key={announcement.id}>{announcement.text}</p>
        ))}
      </div>
      <ScrollToNewest
        container={container}
        unseen={messages.filter((m) => m.sender._id !== myId && !m.seenBy[myId]).length}
      />
      {error && (
        <p className="form__error message-list__error" role="alert">
          {error}
          <button type="button" className="link-button" onClick={clearError}>
            {t('common.dismiss')}
          </button>
        </p>
      )}
    </div>
  );
};

/** The first unread message when the chat opened, decided once: later messages do not move it. */
const useNewMessagesDivider = (
  messages: DisplayMessage[],
  myId: string,
  unreadAtOpen: number | undefined,
) => {
  const [dividerBefore, setDividerBefore] = useState<string | undefined>(undefined);
  const decided = useRef(false);
  useEffect(() => {
    if (decided.current || unreadAtOpen === undefined) return;
    decided.current = true;
    setDividerBefore(firstUnreadId(messages, myId, unreadAtOpen));
  }, [messages, myId, unreadAtOpen]);
  return dividerBefore;
};
