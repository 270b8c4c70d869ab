import { useEffect } from 'react';
import { getSocket, onSocketConnect } from '../../../lib/realtime.ts';

/** `join chat` when a chat opens, and again after every reconnect (the server forgets rooms). */
export const useJoinChat = (chatId: string) => {
  useEffect(() => {
    const socket = getSocket();
    const join = () => socket.emit('join chat', chatId);
    if (socket.connected) join();
    return onSocketConnect(join);
  }, [chatId]);
};
