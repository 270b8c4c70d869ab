import type { ErrorBody } from '@veil/contracts';
import { useEffect, useRef } from 'react';
import { api } from '../lib/api.ts';
import { getSocket } from '../lib/realtime.ts';
import { loggedOut, selectCurrentUser } from '../lib/session.slice.ts';
import { clearStorage } from '../lib/storage.ts';
import { refreshTokens } from '../lib/token-refresh.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';

const authFailureCodes = new Set(['TOKEN_EXPIRED', 'TOKEN_INVALID', 'UNAUTHENTICATED']);
/** A server that keeps refusing fresh tokens must not make us refresh in a tight loop. */
const minRenewIntervalMs = 5000;

/**
 * Keeps the shared socket connected exactly while a user is logged in: `setup` on every
 * connection; an expired token (the server says TOKEN_EXPIRED, then drops the socket, which
 * Socket.IO does not retry by itself) is refreshed and the socket reconnected; a session that
 * cannot be refreshed ends. On logout every cached query is dropped.
 */
export const useRealtimeConnection = () => {
  const userId = useAppSelector(selectCurrentUser)?._id;
  const dispatch = useAppDispatch();
  const wasLoggedIn = useRef(Boolean(userId));

  useEffect(() => {
    if (wasLoggedIn.current && !userId) dispatch(api.util.resetApiState());
    wasLoggedIn.current = Boolean(userId);
  }, [userId, dispatch]);

  useEffect(() => {
    if (!userId) return;
    const socket = getSocket();
    let renewal: Promise<boolean> | null = null;
    let lastRenewAt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let active = true;

    const renew = (): Promise<boolean> => {
      if (Date.now() - lastRenewAt < minRenewIntervalMs) return Promise.resolve(true);
      lastRenewAt = Date.now();
      renewal ??= refreshTokens()
        .then((ok) => {
          if (!ok && active) {
            clearStorage();
            dispatch(loggedOut());
          }
          return ok;
        })
        .finally(() => {
          renewal = null;
        });
      return renewal;
    };
    const reconnectSoon = (ok: boolean) => {
      if (!ok || !active) return;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(
        () => active && !socket.connected && socket.connect(),
        Date.now() - lastRenewAt < 100 ? 0 : 1000,
      );
    };

    const onConnect = () => socket.emit('setup', { _id: userId });
    const onError = (error: ErrorBody) => {
      // An ended session (a logout elsewhere, a password change, a suspension) cannot renew: the
      // failed refresh logs this tab out at once instead of at its next request.
      if (error.code === 'TOKEN_EXPIRED' || error.code === 'TOKEN_REVOKED') void renew();
      else console.warn('Realtime error', error);
    };
    const onDisconnect = (reason: string) => {
      // The server dropped us (token expiry): wait for the renewal, then come back.
      if (reason === 'io server disconnect') void (renewal ?? Promise.resolve(true)).then(reconnectSoon);
    };
    const onConnectError = (error: Error & { data?: { code?: string } }) => {
      const code = error.data?.code;
      if (code && authFailureCodes.has(code)) void renew().then(reconnectSoon);
      else if (!socket.active) console.warn('Realtime connection refused', error.message);
    };

    socket.on('connect', onConnect);
    socket.on('error', onError);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onConnectError);
    socket.connect();
    return () => {
      active = false;
      clearTimeout(retryTimer);
      socket.off('connect', onConnect);
      socket.off('error', onError);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onConnectError);
      socket.disconnect();
    };
  }, [userId, dispatch]);
};
