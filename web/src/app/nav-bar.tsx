import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { Avatar } from '../components/avatar.tsx';
import {
  ChatsIcon,
  LoginIcon,
  LogoutIcon,
  RegisterIcon,
  ShieldIcon,
  UsersIcon,
} from '../components/icons.tsx';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { useAppSelector } from './hooks.ts';

// Its own chunk: logging out (keys, the socket) is nothing a visitor's first page needs.
const LogoutDialog = lazy(() =>
  import('../features/auth/components/logout-dialog.tsx').then(({ LogoutDialog }) => ({
    default: LogoutDialog,
  })),
);

interface NavItemProps {
  to: string;
  label: string;
  icon: ReactNode;
  /** A count shown as a badge; `fullLabel` then names the link with it ("All-chats, 3 unread"). */
  badge?: { count: number; fullLabel: string };
}

const NavItem = ({ to, label, icon, badge }: NavItemProps) => (
  <li>
    <NavLink
      to={to}
      className={({ isActive }) => `nav__link ${isActive ? 'nav__link--active' : ''}`}
      title={badge ? badge.fullLabel : label}
    >
      <span className="nav__icon">
        {icon}
        {badge && (
          <span className="nav__badge" aria-hidden="true" data-testid="nav-unread">
            {badge.count > 99 ? '99+' : badge.count}
          </span>
        )}
      </span>
      {/* With a count, the name screen readers say is the full label, from the link's own text:
          an aria-label would not contain the visible words and count as axe requires. */}
      <span className="nav__label" aria-hidden={badge ? true : undefined}>
        {label}
      </span>
      {badge && <span className="visually-hidden">{badge.fullLabel}</span>}
    </NavLink>
  </li>
);

/**
 * The left bar: icons only on small screens, icons and labels on wide ones (docs/web.md, "Screens": Shell).
 * Logout asks first whether to keep this browser's keys. The Chats item carries the number of
 * chats with unread messages.
 */
export const NavBar = ({
  unreadChats = 0,
  operator = false,
}: {
  unreadChats?: number;
  operator?: boolean;
}) => {
  const user = useAppSelector(selectCurrentUser);
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const { t } = useTranslation();
  const logoutButton = useRef<HTMLButtonElement>(null);
  const closeLogout = () => {
    // The dialog must be gone first: while it is modal, the rest of the page cannot take focus.
    flushSync(() => setConfirmingLogout(false));
    logoutButton.current?.focus(); // back where the user was (gone after a logout)
  };
  return (
    <nav className="nav" aria-label={t('nav.main')}>
      <Link to="/" className="nav__brand" aria-label={t('nav.home')}>
        <img src="/favicon.svg" alt="" width="32" height="32" />
        <span className="nav__label nav__brand-name">Veil</span>
      </Link>
      <ul className="nav__items">
        {!user && <NavItem to="/login" label={t('nav.login')} icon={<LoginIcon />} />}
        {!user && <NavItem to="/register" label={t('nav.register')} icon={<RegisterIcon />} />}
        {user && (
          <NavItem
            to="/all-chats"
            label={t('nav.chats')}
            icon={<ChatsIcon />}
            {...(unreadChats > 0 && {
              badge: { count: unreadChats, fullLabel: t('nav.chatsUnread', { count: unreadChats }) },
            })}
          />
        )}
        <NavItem to="/users" label={t('nav.users')} icon={<UsersIcon />} />
        {operator && <NavItem to="/operator" label={t('nav.operator')} icon={<ShieldIcon />} />}
      </ul>
      {user && (
        <div className="nav__user">
          <Link to="/profile" className="nav__profile" title={user.username}>
            <Avatar name={user.username} picture={user.profilePicture} size="sm" />
            <span className="nav__label nav__username" data-testid="nav-username">
              {user.username}
            </span>
          </Link>
          <button
            ref={logoutButton}
            type="button"
            className="nav__link nav__logout"
            onClick={() => setConfirmingLogout(true)}
            title={t('nav.logout')}
            aria-haspopup="dialog"
          >
            <LogoutIcon />
            <span className="nav__label">{t('nav.logout')}</span>
          </button>
          {confirmingLogout && (
            <Suspense fallback={null}>
              <LogoutDialog onClose={closeLogout} />
            </Suspense>
          )}
        </div>
      )}
    </nav>
  );
};
