import type { PublicUser } from '@veil/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';

interface UserCardProps {
  user: PublicUser;
  /** Shown on hover and focus: "Say Hi", "Login to Chat" or "Your profile". */
  action: string;
  busy: boolean;
  onSelect: (user: PublicUser) => void;
  /** Beside the card's button: blocking, for others when logged in. */
  extra?: ReactNode;
}

/**
 * The button is named by its content, "{name}: {action}" in one piece for assistive technology,
 * rather than by an aria-label: a label must contain all visible text, and a letter avatar is text.
 */
export const UserCard = ({ user, action, busy, onSelect, extra }: UserCardProps) => {
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
        <Avatar name={user.username} picture={user.profilePicture} size="lg" decorative />
        <span className="user-card__name" aria-hidden="true">
          {user.username}
        </span>
        <span className="user-card__action" aria-hidden="true">
          {busy ? t('users.sending') : action}
        </span>
        <span className="visually-hidden">
          {user.username}: {busy ? t('users.sending') : action}
        </span>
      </button>
      {extra}
    </li>
  );
};
