import type { ClientToServerEvents, ServerToClientEvents } from '@veil/contracts';
import { io, type Socket } from 'socket.io-client';
import { readAccessToken } from './storage.ts';

export type VeilSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The seed contract's socket settings (docs/realtime.md): websocket only, 1-5 s reconnect delay with 0.5 jitter, forever, 20 s timeout. */
export const socketOptions = {
  path: '/socket.io',
  transports: ['websocket'],
  upgrade: false,
  autoConnect: false,
  reconnection: true,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Infinity,
  timeout: 20_000,
} as const;

let shared: VeilSocket | null = null;

/**
 * The app's single socket (one per tab), shared by every cache entry and component that needs
 * live data; it is connected while someone is logged in (app/realtime-connection.tsx).
 * `auth` is a function so every connection attempt, reconnects included, reads the current
 * access token rather than the one from the first attempt.
 */
export const getSocket = (): VeilSocket => {
  shared ??= io({
    ...socketOptions,
    transports: [...socketOptions.transports],
    auth: (send) => send({ token: readAccessToken() ?? '' }),
  });
  return shared;
};

/**
 * Calls `onConnect` on every (re)connection of the shared socket until the returned function
 * is called. Caches use it to catch up on what they missed while the socket was down: the
 * server keeps no per-connection state to replay.
 */
export const onSocketConnect = (onConnect: () => void): (() => void) => {
  const socket = getSocket();
  socket.on('connect', onConnect);
  return () => {
    socket.off('connect', onConnect);
  };
};
