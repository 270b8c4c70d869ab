import { io, type Socket } from 'socket.io-client';

/**
 * A sending user's socket on the load generator's main thread (receivers live in worker
 * threads, receivers.ts): websocket only, no reconnection, so a dropped sender fails the run
 * instead of quietly buffering its sends. Resolves once connected.
 */
export const connectSender = (url: string, auth: Record<string, unknown>, origin?: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(url, {
      transports: ['websocket'],
      auth,
      reconnection: false,
      ...(origin ? { extraHeaders: { origin } } : {}),
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
