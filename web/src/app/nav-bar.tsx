import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Avatar } from '../components/avatar.tsx';
import { ChatsIcon, LoginIcon, LogoutIcon, RegisterIcon, UsersIcon } from '../components/icons.tsx';
import { useLogout } from '../features/auth/hooks/use-logout.ts';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { useAppSelector } from './hooks.ts';

const NavItem = ({ to, label, icon }: { to: string; label: string; icon: ReactNode }) => (
  <li>
    <NavLink
      to={to}
      className={({ isActive }) => `nav__link ${isActive ? 'nav__link--active' : ''}`}
      title={label}
    >
      {icon}
      <span className="nav__label">{label}</span>
    </NavLink>
  </li>
);

/** The left bar: icons only on small screens, icons and labels on wide ones (spec section 2). */
export const NavBar = () => {
  const user = useAppSelector(selectCurrentUser);
  const logout = useLogout();
  return (
    <nav className="nav" aria-label="Main">
      <Link to="/" className="nav__brand" aria-label="Veil home">
        <img src="/favicon.svg" alt="" width="32" height="32" />
        <span className="nav__label nav__brand-name">Veil</span>
      </Link>
      <ul className="nav__items">
        {!user && <NavItem to="/login" label="Login" icon={<LoginIcon />} />}
        {!user && <NavItem to="/register" label="Register" icon={<RegisterIcon />} />}
        {user && <NavItem to="/all-chats" label="All-chats" icon={<ChatsIcon />} />}
        <NavItem to="/users" label="Users" icon={<UsersIcon />} />
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
            type="button"
            className="nav__link nav__logout"
            onClick={() => void logout()}
            title="Logout"
          >
            <LogoutIcon />
            <span className="nav__label">Logout</span>
          </button>
        </div>
      )}
    </nav>
  );
};
