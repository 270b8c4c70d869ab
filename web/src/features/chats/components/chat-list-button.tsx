import { useTranslation } from 'react-i18next';
import { BackIcon } from '../../../components/icons.tsx';

/** On small screens the chat list is hidden; this button (shown only there) brings it back. */
export const ChatListButton = ({ onClick }: { onClick: () => void }) => {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button chat-list-button"
      aria-label={t('chats.showList')}
      aria-controls="chat-list"
      onClick={onClick}
    >
      <BackIcon />
    </button>
  );
};
