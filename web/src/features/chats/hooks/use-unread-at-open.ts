import { useEffect, useState } from 'react';
import { useGetUnreadQuery, setOpenChat } from '../../messages/index.ts';

/**
 * Marks the chat as the one this tab reads, and returns how many of its messages were unread
 * when it opened (the first count known; undefined until then), so the "New messages" divider stays put while the
 * count drops to zero as the messages are seen.
 */
export const useUnreadAtOpen = (chatId: string, myId: string): number | undefined => {
  const { data } = useGetUnreadQuery(myId);
  const [atOpen, setAtOpen] = useState<number | undefined>(undefined);
  const current = data?.[chatId]?.unread;
  useEffect(() => {
    if (data && atOpen === undefined) setAtOpen(current ?? 0);
  }, [data, current, atOpen]);
  useEffect(() => {
    setOpenChat(chatId);
    return () => setOpenChat(null);
  }, [chatId]);
  return atOpen;
};
