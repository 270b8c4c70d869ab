import type { PublicUser } from '@veil/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { api, listTag } from '../../../lib/api.ts';
import { encryptForIndividual } from '../../../lib/crypto.ts';
import { useSendIndividualMessageMutation } from '../../../lib/messaging.api.ts';
import { sendFailureText } from '../../../lib/send-errors.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';

/**
 * Users page, logged in: starts (or continues) a chat by sending an encrypted "Hi {username}",
 * then opens that chat in /all-chats.
 */
export const useSayHi = () => {
  const me = useAppSelector(selectCurrentUser);
  const [send] = useSendIndividualMessageMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [error, setError] = useState('');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const sayHi = async (user: PublicUser) => {
    if (!me || pendingId) return;
    setError('');
    setPendingId(user._id);
    try {
      const payload = await encryptForIndividual(`Hi ${user.username}`, me._id, user._id);
      const { chat } = await send({
        recipientId: user._id,
        payload,
        clientMessageId: crypto.randomUUID(),
      }).unwrap();
      // The chat (maybe new) and its history changed; cached copies must not hide that.
      dispatch(
        api.util.invalidateTags([
          { type: 'Chat', id: listTag },
          { type: 'Messages', id: chat._id },
        ]),
      );
      await navigate(`/all-chats?chat=${encodeURIComponent(chat._id)}`);
    } catch (failure) {
      setError(sendFailureText(false, failure));
    } finally {
      setPendingId(null);
    }
  };

  return { sayHi, pendingId, error };
};
