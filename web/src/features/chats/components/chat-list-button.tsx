import { BackIcon } from '../../../components/icons.tsx';

/** On small screens the chat list is hidden; this button (shown only there) brings it back. */
export const ChatListButton = ({ onClick }: { onClick: () => void }) => (
  <button type="button" className="icon-button chat-list-button" aria-label="Show chats" onClick={onClick}>
    <BackIcon />
  </button>
);
