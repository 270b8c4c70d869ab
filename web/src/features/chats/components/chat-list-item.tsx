import type { ChatView } from '@veil/contracts';
import { Avatar } from '../../../components/avatar.tsx';
import { chatTitle } from '../messages.model.ts';

interface ChatListItemProps {
  chat: ChatView;
  selected: boolean;
  online: boolean;
  onSelect: (chatId: string) => void;
}

export const ChatListItem = ({ chat, selected, online, onSelect }: ChatListItemProps) => {
  const title = chatTitle(chat);
  return (
    <li>
      <button
        type="button"
        className={`chat-item ${selected ? 'chat-item--selected' : ''}`}
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
          <span className="chat-item__title">{title}</span>
          <span className="chat-item__subtitle">
            {chat.isGroupChat ? `Group · ${chat.participants.length} members` : 'Direct message'}
          </span>
        </span>
      </button>
    </li>
  );
};
