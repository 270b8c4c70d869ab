import type { TFunction } from 'i18next';
import type { ChatUnread, ChatView } from '@veil/contracts';
import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import { IsolatedSentence } from '../../../components/isolated-sentence.tsx';
import { badgeText, listTime, previewLine } from '../chat-summary.model.ts';
import { usePreview } from '../hooks/use-preview.ts';
import { useSignedGroupTitle } from '../hooks/use-signed-group-title.ts';
import { clearMentioned, useMentioned } from '../../mentions/index.ts';

interface ChatListItemProps {
  chat: ChatView;
  myId: string;
  summary: ChatUnread | undefined;
  selected: boolean;
  online: boolean;
  onSelect: (chatId: string) => void;
}

/** Whose message the preview shows: "You", a group member's name, or nobody in a one-to-one chat. */
const authorOf = (chat: ChatView, myId: string, senderId: string, t: TFunction) => {
  if (senderId === myId) return t('common.you');
  if (!chat.isGroupChat) return null;
  return chat.participants.find((p) => p._id === senderId)?.username ?? t('common.formerMember');
};

export const ChatListItem = memo(({ chat, myId, summary, selected, online, onSelect }: ChatListItemProps) => {
  const { t, i18n } = useTranslation();
  const row = useRef<HTMLLIElement>(null);
  const title = useSignedGroupTitle(row, chat, myId);
  const last = summary?.lastMessage ?? null;
  const preview = usePreview(row, chat, last, myId);
  // The open chat is being read: its count is on its way to zero.
  const unread = selected ? 0 : (summary?.unread ?? 0);
  // An unread mention of me: it stays until the chat is read (here, or on another device).
  const mentioned = useMentioned(myId, chat._id);
  const read = selected || (summary !== undefined && unread === 0);
  useEffect(() => {
    if (mentioned && read) clearMentioned(myId, chat._id);
  }, [mentioned, read, myId, chat._id]);
  const subtitle = chat.isGroupChat
    ? t('chats.groupSubtitle', { count: chat.participants.length })
    : t('chats.direct');
  return (
    <li ref={row}>
      <button
        type="button"
        className={`chat-item ${selected ? 'chat-item--selected' : ''} ${unread ? 'chat-item--unread' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(chat._id)}
        data-testid="chat-item"
      >
        <Avatar
          name={title}
          picture={chat.isGroupChat ? null : chat.participants[0]?.profilePicture}
          online={online}
        />
        <span className="chat-item__text">
          <span className="chat-item__top">
            <span className="chat-item__title" data-testid="chat-item-title">
              <bdi>{title}</bdi>
            </span>
            {last && (
              <time className="chat-item__time" dateTime={last.createdAt}>
                {listTime(last.createdAt, new Date(), i18n.resolvedLanguage)}
              </time>
            )}
          </span>
          <span className="chat-item__bottom">
            <span className="chat-item__subtitle" data-testid="chat-preview">
              {last ? (
                preview === undefined ? (
                  '…'
                ) : (
                  <IsolatedSentence parts={previewLine(preview, authorOf(chat, myId, last.sender._id, t))} />
                )
              ) : (
                subtitle
              )}
            </span>
            {mentioned && unread > 0 && (
              <span
                className="chat-item__badge chat-item__mention"
                aria-label={t('mentions.badge')}
                title={t('mentions.badge')}
                data-testid="mention-badge"
              >
                @
              </span>
            )}
            {unread > 0 && (
              <span
                className="chat-item__badge"
                aria-label={t('chats.unread', { count: unread })}
                data-testid="unread-badge"
              >
                {badgeText(unread)}
              </span>
            )}
          </span>
        </span>
      </button>
    </li>
  );
});
ChatListItem.displayName = 'ChatListItem';
