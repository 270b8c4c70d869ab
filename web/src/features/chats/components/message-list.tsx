import type { ChatView, MessageView, PublicUser } from '@veil/contracts';
import { useCallback, useEffect, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import type { DisplayMessage } from '../../../lib/crypto.ts';
import { getSocket } from '../../../lib/realtime.ts';
import { useHistoryScroll } from '../hooks/use-history-scroll.ts';
import { useMessageActions } from '../hooks/use-message-actions.ts';
import { useOlderMessages } from '../hooks/use-older-messages.ts';
import { useSeenReporter } from '../hooks/use-seen-reporter.ts';
import { noticeText, timelineOf } from '../group-notices.ts';
import { isSeenByOthers, otherMemberIds } from '../messages.model.ts';
import { MessageBubble } from './message-bubble.tsx';

interface MessageListProps {
  chat: ChatView;
  me: PublicUser;
  messages: DisplayMessage[];
  hasMore: boolean;
  onReply: (message: DisplayMessage) => void;
}

/** The open chat's messages, oldest at the top; scrolling up loads older pages. */
export const MessageList = ({ chat, me, messages, hasMore, onReply }: MessageListProps) => {
  const myId = me._id;
  const [container, setContainer] = useState<HTMLOListElement | null>(null);
  const { loadOlder, loading } = useOlderMessages({ chatId: chat._id, userId: myId });
  const onNeedOlder = useCallback((seq: number) => void loadOlder(seq), [loadOlder]);
  const { onScroll } = useHistoryScroll({ container, messages, myId, hasMore, onNeedOlder });
  const { track, reportNow } = useSeenReporter(chat._id, container);
  const others = otherMemberIds(chat, myId);
  const { actions, error, clearError } = useMessageActions(chat, me);
  const nameOf = useCallback(
    (userId: string) => chat.participants.find((p) => p._id === userId)?.username ?? 'Former member',
    [chat.participants],
  );

  // A message arriving while its chat is open counts as seen at once (spec section 4).
  useEffect(() => {
    const socket = getSocket();
    const onMessage = ({ message }: { message: MessageView }) => {
      if (message.chat === chat._id && message.sender._id !== myId) reportNow(message._id);
    };
    socket.on('message received', onMessage);
    return () => {
      socket.off('message received', onMessage);
    };
  }, [chat._id, myId, reportNow]);

  return (
    // The loading indicator floats over the list rather than being a row in it: a row would
    // change the list's height and throw off the scroll position kept while older pages load.
    <div className="message-list-frame">
      {loading && (
        <div className="message-list__loading">
          <Spinner label="Loading older messages" />
        </div>
      )}
      <ol className="message-list" ref={setContainer} onScroll={onScroll} aria-label="Messages" tabIndex={0}>
        {messages.length === 0 && <li className="empty-state">No messages available</li>}
        {timelineOf(messages, chat.notices ?? [], hasMore).map((item) => {
          if (item.kind === 'notice')
            return (
              <li
                key={`${item.notice.kind}-${item.notice.at}-${item.notice.members.map((m) => m._id).join()}`}
                className="system-line"
                data-testid="system-line"
              >
                {noticeText(item.notice, myId)}
              </li>
            );
          const { message } = item;
          const mine = message.sender._id === myId;
          return (
            <MessageBubble
              key={message._id}
              message={message}
              mine={mine}
              senderName={chat.isGroupChat && !mine ? nameOf(message.sender._id) : null}
              seen={mine && isSeenByOthers(message, others)}
              track={!mine && !message.seenBy[myId] ? track : null}
              onReply={onReply}
              myId={myId}
              nameOf={nameOf}
              actions={actions}
            />
          );
        })}
      </ol>
      {error && (
        <p className="form__error message-list__error" role="alert">
          {error}
          <button type="button" className="link-button" onClick={clearError}>
            Dismiss
          </button>
        </p>
      )}
    </div>
  );
};
