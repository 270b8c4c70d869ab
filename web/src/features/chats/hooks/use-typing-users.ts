import { useEffect, useState } from 'react';
import { getSocket } from '../../../lib/realtime.ts';
import { typingIndicatorClearMs } from '../realtime-constants.ts';

/** Ids of the other members typing in `chatId` now: each clears on `stop typing` or after 3 s. */
export const useTypingUsers = (chatId: string): string[] => {
  const [typing, setTyping] = useState<string[]>([]);

  useEffect(() => {
    const socket = getSocket();
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const clear = (userId: string) => {
      clearTimeout(timers.get(userId));
      timers.delete(userId);
      setTyping((ids) => ids.filter((id) => id !== userId));
    };
    const onTyping = (notice: { chatId: string; userId: string }) => {
      if (notice.chatId !== chatId) return;
      clearTimeout(timers.get(notice.userId));
      timers.set(
        notice.userId,
        setTimeout(() => clear(notice.userId), typingIndicatorClearMs),
      );
      setTyping((ids) => (ids.includes(notice.userId) ? ids : [...ids, notice.userId]));
    };
    const onStop = (notice: { chatId: string; userId: string }) => {
      if (notice.chatId === chatId) clear(notice.userId);
    };
    socket.on('typing', onTyping);
    socket.on('stop typing', onStop);
    return () => {
      socket.off('typing', onTyping);
      socket.off('stop typing', onStop);
      timers.forEach((timer) => clearTimeout(timer));
      setTyping([]);
    };
  }, [chatId]);

  return typing;
};
