import { t } from '../../lib/i18n.ts';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectCurrentUser } from '../../lib/session.slice.ts';
import { chatTitle, fetchChat, followNewMessages, type ArrivedMessage } from '../messages/index.ts';
import { loadNotificationSettings, notificationSettings } from './notification-settings.ts';
import { pushSupported, subscribeToPush } from './push/push-subscription.ts';
import { mentionsUser } from '../mentions/index.ts';

/**
 * A browser notification for each message that arrives while the tab is hidden, when the user
 * turned them on (and the browser allows them) and the chat is not muted, or is muted but the
 * message mentions the user (as Signal does): the sender, the chat, and the text, decrypted here.
 * Clicking it opens the chat.
 */
export const useMessageNotifications = () => {
  const me = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  useEffect(() => {
    if (!me) return;
    // This session's subscription: a new login is a new session, whose pushes start here.
    void loadNotificationSettings(me._id).then(() => {
      if (!notificationSettings(me._id).enabled || !pushSupported()) return;
      if (Notification.permission !== 'granted') return;
      subscribeToPush(dispatch).catch((error: unknown) => console.warn('Push subscription failed', error));
    });
    const onMessage = async ({ message, read }: ArrivedMessage) => {
      const settings = notificationSettings(me._id);
      if (!settings.enabled) return;
      if (document.visibilityState !== 'hidden' || !('Notification' in window)) return;
      if (Notification.permission !== 'granted') return;
      // Who a muted chat's message mentions is only known once it is read (and checked) here.
      if (
        settings.muted.includes(message.chat) &&
        !mentionsUser((await read({ userId: me._id, dispatch })).mentions, me._id)
      )
        return;
      const chat = await fetchChat(dispatch, message.chat).catch(() => undefined);
      const sender =
        chat?.participants.find((p) => p._id === message.sender._id)?.username ??
        t('notifications.newMessage');
      // Checked like the chat checks it: a forgery's text never reaches a notification either.
      const { decryptedContent } = chat
        ? await read({ userId: me._id, dispatch })
        : { decryptedContent: t('notifications.newMessage') };
      const title = chat?.isGroupChat
        ? t('notifications.inGroup', { sender, chat: chatTitle(chat) })
        : sender;
      const shown = new Notification(title, { body: decryptedContent, tag: message.chat });
      shown.onclick = () => {
        window.focus();
        void navigate(`/all-chats?chat=${encodeURIComponent(message.chat)}`);
        shown.close();
      };
    };
    return followNewMessages((arrived) => void onMessage(arrived));
  }, [me, dispatch, navigate]);
};
