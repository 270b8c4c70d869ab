import { useSyncExternalStore } from 'react';
import { getSocket } from './realtime.ts';

/**
 * The app's link to the server, as people see it: `online` while the socket is connected,
 * `offline` while the browser has no network at all, `connecting` in between (the socket is
 * trying again: the server restarts, a proxy drops it, the token is being renewed).
 */
export type ConnectionState = 'online' | 'connecting' | 'offline';

export const connectionState = (): ConnectionState => {
  if (!navigator.onLine) return 'offline';
  return getSocket().connected ? 'online' : 'connecting';
};

const subscribe = (onChange: () => void) => {
  const socket = getSocket();
  socket.on('connect', onChange);
  socket.on('disconnect', onChange);
  socket.on('connect_error', onChange);
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    socket.off('connect', onChange);
    socket.off('disconnect', onChange);
    socket.off('connect_error', onChange);
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

export const useConnectionState = (): ConnectionState => useSyncExternalStore(subscribe, connectionState);
