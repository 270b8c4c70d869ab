import type { ChatView } from '@veil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/api-error.ts';
import { useSetChatPrefMutation } from '../api/chat-prefs.api.ts';

/** In a chat's header: archive or pin it in this account's list, on every browser of the account. */
export const ChatListPrefs = ({ chat }: { chat: ChatView }) => {
  const [setPref, { isLoading }] = useSetChatPrefMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const { t } = useTranslation();
  const archived = chat.archivedAt !== undefined;
  const pinned = chat.pinnedAt !== undefined;
  const change = async (pref: 'archive' | 'pin', on: boolean) => {
    setFailure(null);
    try {
      await setPref({ chatId: chat._id, pref, on }).unwrap();
    } catch (error) {
      setFailure(errorText(error));
    }
  };
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={isLoading}
        onClick={() => void change('pin', !pinned)}
      >
        {pinned ? t('chatList.unpin') : t('chatList.pin')}
      </button>
      <button
        type="button"
        className="button"
        disabled={isLoading}
        onClick={() => void change('archive', !archived)}
      >
        {archived ? t('chatList.unarchive') : t('chatList.archive')}
      </button>
      {failure && (
        <span className="form__error" role="alert">
          {failure}
        </span>
      )}
    </>
  );
};
