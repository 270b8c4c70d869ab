import { useTranslation } from 'react-i18next';
import { toggleMute, useNotificationSettings } from './notification-settings.ts';

/** In the chat header: mutes or unmutes this chat's notifications in this browser. */
export const MuteButton = ({ userId, chatId }: { userId: string; chatId: string }) => {
  const muted = useNotificationSettings(userId).muted.includes(chatId);
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="button chat-header__mute"
      aria-pressed={muted}
      onClick={() => void toggleMute(userId, chatId)}
    >
      {muted ? t('chats.unmute') : t('chats.mute')}
    </button>
  );
};
