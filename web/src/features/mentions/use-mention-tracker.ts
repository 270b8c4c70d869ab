import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectCurrentUser } from '../../lib/session.slice.ts';
import { isReadingChat, followNewMessages } from '../messages/index.ts';
import { mentionsUser } from './mention-text.ts';
import { loadUnreadMentions, markMentioned } from './unread-mentions.ts';

/**
 * Marks a chat when a message arrives there that mentions the account and is not read at once
 * (another chat open, or the tab hidden): the chat list's "@" badge. Who a message mentions is
 * inside its ciphertext, so each such message is read (and checked) here as it arrives.
 */
export const useMentionTracker = () => {
  const me = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!me) return;
    void loadUnreadMentions(me._id);
    return followNewMessages(({ message, read }) => {
      if (message.sender._id === me._id || isReadingChat(message.chat)) return;
      read({ userId: me._id, dispatch })
        .then((shown) => {
          if (mentionsUser(shown.mentions, me._id)) markMentioned(me._id, message.chat);
        })
        // Not readable here (no key, its chat not loaded): it names nobody this browser can tell.
        .catch(() => undefined);
    });
  }, [me, dispatch]);
};
