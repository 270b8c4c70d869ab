import type { ChatView } from '@veil/contracts';
import { useState } from 'react';
import { CloseIcon, PlusIcon } from '../../../components/icons.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { matchesChatFilter } from '../messages.model.ts';
import { ChatListItem } from './chat-list-item.tsx';

interface ChatListProps {
  chats: ChatView[] | undefined;
  loading: boolean;
  selectedId: string | null;
  onlineIds: string[];
  /** Small screens: the list is an overlay, shown on demand. */
  open: boolean;
  onSelect: (chatId: string) => void;
  onClose: () => void;
  onCreateGroup: () => void;
}

/** The left pane: searchable chats and the floating create-group button. */
export const ChatList = ({
  chats,
  loading,
  selectedId,
  onlineIds,
  open,
  onSelect,
  onClose,
  onCreateGroup,
}: ChatListProps) => {
  const [filter, setFilter] = useState('');
  const shown = (chats ?? []).filter((chat) => matchesChatFilter(chat, filter));
  const isOnline = (chat: ChatView) =>
    !chat.isGroupChat && onlineIds.includes(chat.participants[0]?._id ?? '');

  return (
    <aside
      className={`chat-list ${open ? 'chat-list--open' : ''}`}
      aria-label="Chats"
      data-testid="chat-list"
    >
      <div className="chat-list__top">
        <input
          className="search__input chat-list__search"
          type="search"
          placeholder="Search chats"
          aria-label="Search chats"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <button
          type="button"
          className="icon-button chat-list__close"
          aria-label="Hide chats"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </div>
      {loading ? (
        <Spinner label="Loading chats" />
      ) : shown.length === 0 ? (
        <p className="empty-state">No chats available</p>
      ) : (
        <ul className="chat-list__items">
          {shown.map((chat) => (
            <ChatListItem
              key={chat._id}
              chat={chat}
              selected={chat._id === selectedId}
              online={isOnline(chat)}
              onSelect={onSelect}
            />
          ))}
        </ul>
      )}
      <button type="button" className="fab" aria-label="Create group chat" onClick={onCreateGroup}>
        <PlusIcon />
      </button>
    </aside>
  );
};
