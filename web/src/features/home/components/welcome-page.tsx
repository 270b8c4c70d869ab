import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigationType } from 'react-router';
import { useAppSelector } from '../../../app/hooks.ts';
import { Avatar } from '../../../components/avatar.tsx';
import { BoltIcon, LockIcon, ShieldIcon, UsersIcon } from '../../../components/icons.tsx';
import { selectCurrentUser } from '../../../lib/session.slice.ts';

/** The landing page's feature list (docs/web.md, "Screens": Welcome). */
const features = [
  { name: 'e2e', Icon: LockIcon },
  { name: 'realtime', Icon: BoltIcon },
  { name: 'groups', Icon: UsersIcon },
  { name: 'privacy', Icon: ShieldIcon },
] as const;

/**
 * `/`: greeting and main button depend on the login state (docs/web.md, "Routes and guards").
 * Someone logged in who opens Veil at `/` (a page load, or back to it) lands on the chats, as in
 * WhatsApp Web; the home link and the logout still show this page.
 */
export const WelcomePage = () => {
  const user = useAppSelector(selectCurrentUser);
  const opened = useNavigationType() === 'POP';
  const { t } = useTranslation();
  if (user && opened) return <Navigate to="/all-chats" replace />;
  return (
    <section className="welcome">
      <div className="welcome__hero">
        {user ? (
          <div className="welcome__greeting">
            <Avatar name={user.username} picture={user.profilePicture} size="lg" />
            <div>
              <h1>{t('welcome.back', { name: user.username })}</h1>
              <Link to="/profile" className="welcome__profile-link">
                {t('welcome.viewProfile')}
              </Link>
            </div>
          </div>
        ) : (
          <h1>{t('welcome.title')}</h1>
        )}
        <p className="welcome__tagline">{t('welcome.tagline')}</p>
        <Link className="button button--primary button--large" to={user ? '/all-chats' : '/login'}>
          {user ? t('welcome.start') : t('welcome.loginToStart')}
        </Link>
      </div>
      <ul className="welcome__features" aria-label={t('welcome.features')}>
        {features.map(({ name, Icon }) => (
          <li key={name} className="feature-card">
            <span className="feature-card__icon">
              <Icon />
            </span>
            <h2 className="feature-card__title">{t(`welcome.${name}Title`)}</h2>
            <p className="feature-card__text">{t(`welcome.${name}Text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
};
