import { useTranslation } from 'react-i18next';
import type { ChatView, PublicUser } from '@veil/contracts';
import { useState, type ReactNode } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { ChatListButton } from './chat-list-button.tsx';
import { DisappearingTimerSelect } from './disappearing-timer-select.tsx';
import type { VerifiedGroup } from '../../keys/index.ts';
import { GroupInfoPanel } from './group-info-panel.tsx';
import { lastSeenText } from '../last-seen.model.ts';

interface ChatHeaderProps {
  chat: ChatView;
  me: PublicUser;
  title: string;
  online: boolean;
  /** When the other party of a one-to-one chat was last seen (ISO 8601), if the server shares it. */
  lastSeen?: string | undefined;
  onShowList: () => void;
  /** Buttons at the header's end (the safety number). */
  actions?: ReactNode;
  /** A group's verified chain, for its info (undefined while it is checked). */
  group?: VerifiedGroup | undefined;
}

export const ChatHeader = ({
  chat,
  me,
  title,
  online,
  lastSeen,
  onShowList,
  actions,
  group,
}: ChatHeaderProps) => {
  const { t, i18n } = useTranslation();
  return (
    <header className="chat-header">
      <ChatListButton onClick={onShowList} />
      <Avatar
        name={title}
        picture={chat.isGroupChat ? chat.groupPicture : chat.participants[0]?.profilePicture}
        online={online}
      />
      <div className="chat-header__text">
        <h2 className="chat-header__title" data-testid="chat-title">
          <bdi>{title}</bdi>
        </h2>
        {chat.isGroupChat && (
          <p className="chat-header__members">
            {chat.participants.map((p) => p.username).join(t('common.listSeparator'))}
          </p>
        )}
        {!chat.isGroupChat && (online || lastSeen) && (
          <p className="chat-header__status" data-testid="chat-status">
            {online ? t('chats.online') : lastSeenText(lastSeen!, new Date(), i18n.resolvedLanguage)}
          </p>
        )}
      </div>
      {/* A group the user was removed from is read-only: nothing to change there. */}
      {chat.isGroupChat && !chat.removedFromGroup && <GroupInfoButton chat={chat} me={me} group={group} />}
      {!chat.removedFromGroup && <DisappearingTimerSelect chat={chat} />}
      {actions && <div className="chat-header__actions">{actions}</div>}
    </header>
  );
};

/** Opens the group's details: members, admins, name, picture, leaving. */
const GroupInfoButton = ({
  chat,
  me,
  group,
}: {
  chat: ChatView;
  me: PublicUser;
  group: VerifiedGroup | undefined;
}) => {
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="button chat-header__info" onClick={() => setOpen(true)}>
        {t('chats.groupInfo')}
      </button>
      {open && <GroupInfoPanel chat={chat} me={me} group={group} onClose={() => setOpen(false)} />}
    </>
  );
};
