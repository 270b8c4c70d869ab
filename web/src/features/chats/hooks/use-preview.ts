import type { ChatView, MessageView } from '@veil/contracts';
import { useEffect, useState, type RefObject } from 'react';
import { useAppSelector } from '../../../app/hooks.ts';
import { selectKeysVersion } from '../../keys/index.ts';
import { decryptPreview, knownPreview } from '../../messages/index.ts';
import { whenRowShown } from './row-visibility.ts';

/**
 * The preview of `chat`'s newest message, checked against its sender's signature and decrypted
 * once the row comes into view.
 */
export const usePreview = (
  row: RefObject<Element | null>,
  chat: ChatView,
  message: MessageView | null,
  userId: string,
) => {
  const [text, setText] = useState(() => (message ? knownPreview(message) : undefined));
  // Where the message is checked: the chat, whether it is a group, its members (the reader too).
  const { _id: chatId, isGroupChat } = chat;
  const memberIds = chat.participants.map((p) => p._id).join(',');
  // A key restored in this browser may open previews that could not be read before.
  const keysVersion = useAppSelector(selectKeysVersion);
  useEffect(() => {
    const element = row.current;
    if (!message || !element) return;
    const known = knownPreview(message);
    if (known !== undefined) return setText(known);
    let live = true;
    const context = {
      chatId,
      isGroupChat,
      memberIds: [...new Set([userId, ...memberIds.split(',').filter(Boolean)])],
    };
    const stopWatching = whenRowShown(
      element,
      () => void decryptPreview(message, userId, context).then((read) => live && setText(read)),
    );
    return () => {
      live = false;
      stopWatching();
    };
  }, [row, chatId, isGroupChat, memberIds, message, userId, keysVersion]);
  return message ? text : undefined;
};
