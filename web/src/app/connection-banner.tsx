import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectionState } from '../lib/connection.ts';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { useAppSelector } from './hooks.ts';

/** A connection that comes back within this long (a page load, a quick reconnect) shows nothing. */
const graceMs = 1500;

/** Under the top bar while a logged-in user's connection is down: what is happening, and that nothing is lost. */
export const ConnectionBanner = () => {
  const loggedIn = Boolean(useAppSelector(selectCurrentUser));
  const state = useConnectionState();
  const [shown, setShown] = useState<'connecting' | 'offline' | null>(null);
  const { t } = useTranslation();
  useEffect(() => {
    if (!loggedIn || state === 'online') return setShown(null);
    const timer = setTimeout(() => setShown(state), state === 'offline' ? 0 : graceMs);
    return () => clearTimeout(timer);
  }, [loggedIn, state]);
  if (!shown) return null;
  return (
    <p
      className={`connection-banner connection-banner--${shown}`}
      role="status"
      data-testid="connection-state"
    >
      {t(`connection.${shown}`)}
    </p>
  );
};
