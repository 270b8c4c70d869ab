import { useEffect } from 'react';
import { getSocket, onSocketConnect } from '../../../lib/realtime.ts';

/**
 * `join chat` when a chat opens, and again after every reconnect (the server forgets rooms).
 * Not for a group the user was removed from (`member`: false): it has nothing live for them.
 */
export const useJoinChat = (chatId: string, member = true) => {
  useEffect(() => {
    if (!member) return;
    const socket = getSocket();
    const join = () => socket.emit('join chat', chatId);
    if (socket.connected) join();
    return onSocketConnect(join);
  }, [chatId, member]);
};
