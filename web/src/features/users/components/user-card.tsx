import type { PublicUser } from '@veil/contracts';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';

interface UserCardProps {
  user: PublicUser;
  /** Shown on hover and focus: "Say Hi", "Login to Chat" or "Your profile". */
  action: string;
  busy: boolean;
  onSelect: (user: PublicUser) => void;
}

/**
 * The button's name is its own text, "{name}: {action}", so what is seen (a letter avatar is
 * decoration) and what is heard agree, as speech input needs.
 */
export const UserCard = ({ user, action, busy, onSelect }: UserCardProps) => {
  const { t } = useTranslation();
  return (
    <li>
      <button
        type="button"
        className="user-card"
        onClick={() => onSelect(user)}
        aria-busy={busy || undefined}
        data-testid="user-card"
      >
        <Avatar name={user.username} picture={user.profilePicture} size="lg" />
        <span className="user-card__name">{user.username}</span>
        <span className="visually-hidden">: </span>
        <span className="user-card__action">{busy ? t('users.sending') : action}</span>
      </button>
    </li>
  );
};
