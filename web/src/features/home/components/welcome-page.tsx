import { Link } from 'react-router';
import { useAppSelector } from '../../../app/hooks.ts';
import { Avatar } from '../../../components/avatar.tsx';
import { BoltIcon, LockIcon, ShieldIcon, UsersIcon } from '../../../components/icons.tsx';
import { selectCurrentUser } from '../../../lib/session.slice.ts';

/** The landing page's feature list (spec section 1). */
const features = [
  {
    title: 'End-to-end encryption',
    text: 'Messages are encrypted on your device; only the chat’s members can read them.',
    Icon: LockIcon,
  },
  {
    title: 'Real-time messaging',
    text: 'Messages, typing and read receipts arrive the moment they happen.',
    Icon: BoltIcon,
  },
  {
    title: 'Group chats',
    text: 'Talk with several people at once, every message encrypted for each member.',
    Icon: UsersIcon,
  },
  {
    title: 'User privacy',
    text: 'Your private key never leaves this browser; the server stores only ciphertext.',
    Icon: ShieldIcon,
  },
] as const;

/** `/`: greeting and main button depend on the login state (spec section 2). */
export const WelcomePage = () => {
  const user = useAppSelector(selectCurrentUser);
  return (
    <section className="welcome">
      <div className="welcome__hero">
        {user ? (
          <div className="welcome__greeting">
            <Avatar name={user.username} picture={user.profilePicture} size="lg" />
            <div>
              <h1>Welcome back, {user.username}!</h1>
              <Link to="/profile" className="welcome__profile-link">
                View Profile
              </Link>
            </div>
          </div>
        ) : (
          <h1>Welcome to Veil</h1>
        )}
        <p className="welcome__tagline">Private conversations, end-to-end encrypted, in real time.</p>
        <Link className="button button--primary button--large" to={user ? '/all-chats' : '/login'}>
          {user ? 'Start Chatting' : 'Login to Start Chatting'}
        </Link>
      </div>
      <ul className="welcome__features" aria-label="Features">
        {features.map(({ title, text, Icon }) => (
          <li key={title} className="feature-card">
            <span className="feature-card__icon">
              <Icon />
            </span>
            <h2 className="feature-card__title">{title}</h2>
            <p className="feature-card__text">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
};
