import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { removeAccountKeys, deleteStoredKeyLogs } from '../../keys/index.ts';
import { getSocket } from '../../../lib/realtime.ts';
import { loggedOut, selectCurrentUser } from '../../../lib/session.slice.ts';
import { clearStorage, readRefreshToken } from '../../../lib/storage.ts';

/**
 * Asks the server to revoke the refresh token's family (Veil's addition; the seed contract's logout is
 * client-only). A plain keepalive fetch: logging out resets the API cache, which would abort
 * an RTK Query request, and the page may be closing.
 */
const revokeRefreshToken = (refreshtoken: string) => {
  fetch('/api/v1/user/logout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshtoken }),
    keepalive: true,
  }).catch((error: unknown) => console.warn('Session revoke failed', error));
};

/**
 * Logout (docs/web.md, "Screens"): `set offline` with the user id, all local storage cleared, the
 * state reset, then /. The refresh token is also revoked on the server (best effort), so a
 * copy of it is useless afterwards. With `removeKeys` the account's private keys are deleted
 * from this browser first; if that fails, it throws and nothing else happens. The contacts' key
 * logs kept for the service worker go either way (the login's pushes end with it).
 */
export const useLogout = () => {
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  return async ({ removeKeys }: { removeKeys: boolean }) => {
    if (removeKeys && user) await removeAccountKeys(user._id);
    if (user)
      await deleteStoredKeyLogs(user._id).catch((error: unknown) =>
        console.warn('Could not forget the stored key logs', error),
      );
    const socket = getSocket();
    if (user && socket.connected) socket.emit('set offline', user._id);
    const refreshtoken = readRefreshToken();
    if (refreshtoken) revokeRefreshToken(refreshtoken);
    // Leave the page first, synchronously: router updates are transitions, so a guarded page
    // would otherwise see the logout before the navigation and redirect to /login instead.
    await navigate('/', { flushSync: true });
    clearStorage();
    dispatch(loggedOut());
  };
};
