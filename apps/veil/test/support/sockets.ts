import type { ClientToServerEvents, ServerToClientEvents } from '@veil/contracts';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { TestUser } from './users.ts';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A connected socket for `user`, as the web app opens it (websocket, the app's own Origin). */
export const connectSocket = async (
  url: string,
  user: Pick<TestUser, 'accessToken'>,
): Promise<ClientSocket> => {
  const socket: ClientSocket = io(url, {
    transports: ['websocket'],
    auth: { token: user.accessToken },
    extraHeaders: { origin: url },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
};

/** Sockets a suite opens as it goes, closed together at its end. */
export const socketPool = (url: () => string) => {
  const open: ClientSocket[] = [];
  return {
    async connect(user: Pick<TestUser, 'accessToken'>) {
      const socket = await connectSocket(url(), user);
      open.push(socket);
      return socket;
    },
    closeAll() {
      for (const socket of open.splice(0)) socket.close();
    },
  };
};

/**
 * Every notice of a change to a message that `socket` receives from now on; the returned function
 * polls those about one message.
 */
export const listenForChanges = (
  socket: ClientSocket,
  event: 'message edited' | 'message deleted' | 'message hidden' | 'reaction',
) => {
  const received: { messageId: string }[] = [];
  socket.on(event as 'message deleted', (notice) => received.push(notice));
  return (messageId: string) =>
    expect.poll(() => received.filter((n) => n.messageId === messageId), { timeout: 10_000 });
};
