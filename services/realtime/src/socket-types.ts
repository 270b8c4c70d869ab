import type { ClientToServerEvents, ServerToClientEvents } from '@veil/contracts';
import type { Server, Socket } from 'socket.io';

/** Per-socket state, set by the auth middleware before `connection`. Never taken from client payloads. */
export interface SocketData {
  userId: string;
  /** Token expiry, seconds since the epoch. */
  exp: number;
  /** The session the token was minted in: its revocation drops the socket. */
  sessionId?: string;
  /** Whether this socket currently counts towards its user's presence (false after `set offline`). */
  present: boolean;
}

/** Replicas talk to each other only through the adapter's broadcasts; no custom server-side events. */
export type InterServerEvents = Record<string, never>;

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
export type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

/** Every socket of a user joins this room, so any replica can reach the user through the adapter. */
export const userRoom = (userId: string): string => `user:${userId}`;
/** Joined on `join chat` once membership is checked. Delivery goes to user rooms, not chat rooms. */
export const chatRoom = (chatId: string): string => `chat:${chatId}`;
