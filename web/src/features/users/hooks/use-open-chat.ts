import type { PublicUser } from '@veil/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/api-error.ts';
import { t } from '../../../lib/i18n.ts';
import { useOpenDirectChatMutation } from '../api/users.api.ts';

/**
 * Users page, logged in: opens the chat with a user (creating it, empty, on first use) in
 * /all-chats. Nothing is sent: the chat suggests "Hi {username}" as a first message instead.
 */
export const useOpenChat = () => {
  const [openDirectChat] = useOpenDirectChatMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [error, setError] = useState('');
  const navigate = useNavigate();

  const openChat = async (user: PublicUser) => {
    if (pendingId) return;
    setError('');
    setPendingId(user._id);
    try {
      const chat = await openDirectChat(user._id).unwrap();
      await navigate(`/all-chats?chat=${encodeURIComponent(chat._id)}`);
    } catch (failure) {
      setError(t('users.openFailed', { reason: errorText(failure) || t('users.noAnswer') }));
    } finally {
      setPendingId(null);
    }
  };

  return { openChat, pendingId, error };
};
