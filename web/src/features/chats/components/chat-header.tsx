import type { ChatView } from '@veil/contracts';
import type { ReactNode } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { ChatListButton } from './chat-list-button.tsx';

interface ChatHeaderProps {
  chat: ChatView;
  title: string;
  online: boolean;
  onShowList: () => void;
  /** Controls at the end of the header. */
  children?: ReactNode;
}

export const ChatHeader = ({ chat, title, online, onShowList, children }: ChatHeaderProps) => (
  <header className="chat-header">
    <ChatListButton onClick={onShowList} />
    <Avatar
      name={title}
      picture={chat.isGroupChat ? null : chat.participants[0]?.profilePicture}
      online={online}
    />
    <div className="chat-header__text">
      <h2 className="chat-header__title" data-testid="chat-title">
        {title}
      </h2>
      {chat.isGroupChat && (
        <p className="chat-header__members">{chat.participants.map((p) => p.username).join(', ')}</p>
      )}
    </div>
    {children}
  </header>
);
