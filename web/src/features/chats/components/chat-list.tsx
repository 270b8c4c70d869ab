import type { ChatView } from '@veil/contracts';
import { startTransition, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CloseIcon, PlusIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { type UnreadByChat, matchesChatFilter } from '../../messages/index.ts';
import { arrangeChats } from '../chat-arrangement.ts';
import { useNotificationSettings } from '../../notifications/index.ts';
import { ArchivedEntry } from './archived-entry.tsx';
import { MessageResults } from '../../search/index.ts';
import { ChatListItem } from './chat-list-item.tsx';

interface ChatListProps {
  chats: ChatView[] | undefined;
  unread: UnreadByChat | undefined;
  myId: string;
  loading: boolean;
  selectedId: string | null;
  onlineIds: string[];
  /** Small screens: the list is an overlay, shown on demand. */
  open: boolean;
  onSelect: (chatId: string) => void;
  /** Opens a chat at one of its messages (a search result). */
  onOpenMessage: (chatId: string, messageId: string, seq: number) => void;
  onClose: () => void;
  onCreateGroup: () => void;
}

/** About a screenful of rows: drawn first, so their previews start while the rest is drawn. */
const firstRows = 40;

/**
 * How many of `total` rows to draw: a screenful at once, then all of them in a transition after
 * that first paint, which React draws in slices between which the previews' work runs.
 */
const useRowsToDraw = (total: number) => {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (all || total <= firstRows) return;
    const frame = requestAnimationFrame(() => startTransition(() => setAll(true)));
    return () => cancelAnimationFrame(frame);
  }, [all, total]);
  return all ? total : firstRows;
};

/**
 * The left pane: chats searched by name, messages of every chat searched in this browser's own
 * index (the results take the list's place while there is a query), and the floating
 * create-group button.
 */
export const ChatList = ({
  chats,
  unread,
  myId,
  loading,
  selectedId,
  onlineIds,
  open,
  onSelect,
  onOpenMessage,
  onClose,
  onCreateGroup,
}: ChatListProps) => {
  const [filter, setFilter] = useState('');
  const [messageQuery, setMessageQuery] = useState('');
  const { t } = useTranslation();
  const search = useRef<HTMLInputElement>(null);
  // On small screens the list opens over the chat: the keyboard follows it there.
  const wasOpen = useRef(open);
  useEffect(() => {
    const list = search.current?.closest('aside');
    if (open && !wasOpen.current && list && getComputedStyle(list).position === 'absolute') {
      (list.querySelector<HTMLElement>('[aria-current="true"]') ?? search.current)?.focus();
    }
    wasOpen.current = open;
  }, [open]);
  const [showArchived, setShowArchived] = useState(false);
  const { muted } = useNotificationSettings(myId);
  const { rows, archivedCount } = arrangeChats(chats ?? [], new Set(muted), showArchived);
  const shown = rows.filter((chat) => matchesChatFilter(chat, filter));
  const drawn = useRowsToDraw(shown.length);
  const isOnline = (chat: ChatView) =>
    !chat.isGroupChat && onlineIds.includes(chat.participants[0]?._id ?? '');

  return (
    <aside
      className={`chat-list ${open ? 'chat-list--open' : ''}`}
      id="chat-list"
      aria-label={t('chats.heading')}
      data-testid="chat-list"
    >
      <div className="chat-list__top">
        <input
          className="search__input chat-list__search"
          type="search"
          ref={search}
          placeholder={t('chats.search')}
          aria-label={t('chats.search')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <button
          type="button"
          className="icon-button chat-list__close"
          aria-label={t('chats.hideList')}
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
      <input
        className="search__input chat-list__search chat-list__message-search"
        type="search"
        placeholder={t('search.placeholder')}
        aria-label={t('search.placeholder')}
        value={messageQuery}
        onChange={(e) => setMessageQuery(e.target.value)}
      />
      {!messageQuery.trim() && (
        <ArchivedEntry
          count={archivedCount}
          open={showArchived}
          onToggle={() => setShowArchived((open) => !open)}
        />
      )}
      {messageQuery.trim() ? (
        <MessageResults query={messageQuery} chats={chats} myId={myId} onOpen={onOpenMessage} />
      ) : loading ? (
        <Spinner label={t('chats.loading')} />
      ) : shown.length === 0 ? (
        <div className="empty-state">
          <p>{t('chats.none')}</p>
          {!chats?.length && (
            <p>
              <Link to="/users">{t('chats.startFromUsers')}</Link>
            </p>
          )}
        </div>
      ) : (
        <ul className="chat-list__items">
          {shown.slice(0, drawn).map((chat) => (
            <ChatListItem
              key={chat._id}
              chat={chat}
              myId={myId}
              summary={unread?.[chat._id]}
              selected={chat._id === selectedId}
              online={isOnline(chat)}
              onSelect={onSelect}
            />
          ))}
        </ul>
      )}
      <button type="button" className="fab" aria-label={t('chats.createGroup')} onClick={onCreateGroup}>
        <PlusIcon />
      </button>
    </aside>
  );
};
