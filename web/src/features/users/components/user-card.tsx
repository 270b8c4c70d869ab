import type { PublicUser } from '@veil/contracts';
import { Avatar } from '../../../components/avatar.tsx';

interface UserCardProps {
  user: PublicUser;
  /** Shown on hover and focus: "Say Hi", "Login to Chat" or "Your profile". */
  action: string;
  busy: boolean;
  onSelect: (user: PublicUser) => void;
}

export const UserCard = ({ user, action, busy, onSelect }: UserCardProps) => (
  <li>
    <button
      type="button"
      className="user-card"
      onClick={() => onSelect(user)}
      aria-label={`${user.username}: ${action}`}
      aria-busy={busy || undefined}
      data-testid="user-card"
    >
      <Avatar name={user.username} picture={user.profilePicture} size="lg" />
      <span className="user-card__name">{user.username}</span>
      <span className="user-card__action" aria-hidden="true">
        {busy ? 'Sending...' : action}
      </span>
    </button>
  </li>
);
