import { io, type Socket } from 'socket.io-client';

/**
 * A sending user's socket on the load generator's main thread (receivers live in worker
 * threads, receivers.ts): websocket only, no reconnection, so a dropped sender's sends fail
 * (counted as failed sends) instead of waiting for a reconnect. Resolves once connected.
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
    // Its sends then fail (no ack); say why, so a run full of failed sends explains itself.
    socket.on('disconnect', (reason) => {
      if (reason !== 'io client disconnect') console.error(`a sender's socket closed: ${reason}`);
    });
    socket.once('connect_error', reject);
  });
