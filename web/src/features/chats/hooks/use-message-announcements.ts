import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DisplayMessage } from '../../messages/index.ts';

/** Enough to be read out one after another; older ones are dropped from the live region. */
const kept = 5;

export interface Announcement {
  id: string;
  text: string;
}

/**
 * What the chat's live log says: each message from someone else that arrives while the chat is
 * open, with its sender ("New message from Alice: see you at 8"). The history shown when the chat
 * opens and older pages loaded by scrolling are not news, so only messages newer than the newest
 * one already shown count.
 */
export const useMessageAnnouncements = (
  messages: readonly DisplayMessage[],
  myId: string,
  nameOf: (userId: string) => string,
): Announcement[] => {
  const { t } = useTranslation();
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const newestSeq = useRef<number | null>(null);
  useEffect(() => {
    const newest = messages.reduce((max, message) => Math.max(max, message.seq), -1);
    const since = newestSeq.current;
    newestSeq.current = Math.max(newest, since ?? -1);
    if (since === null) return;
    const arrived = messages.filter((message) => message.seq > since && message.sender._id !== myId);
    if (arrived.length === 0) return;
    const said = arrived.map((message) => {
      const name = nameOf(message.sender._id);
      const readable = message.readState === 'read' && message.decryptedContent;
      return {
        id: message._id,
        text: readable
          ? t('messages.announce', { name, text: message.decryptedContent })
          : t('messages.announceFile', { name }),
      };
    });
    setAnnouncements((now) => [...now, ...said].slice(-kept));
  }, [messages, myId, nameOf, t]);
  return announcements;
};
