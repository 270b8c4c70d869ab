import type { ProfileUpdate } from '@veil/contracts';
import { useEffect } from 'react';
import { api } from '../lib/api.ts';
import { getSocket } from '../lib/realtime.ts';
import { profileChanged, selectCurrentUser } from '../lib/session.slice.ts';
import { storeUser } from '../lib/storage.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';

/**
 * Renames and new pictures, live (`user updated`): chats (their names, participants and
 * pictures) and the directory are read again; the user's own record follows a change made on
 * another device.
 */
export const useProfileUpdates = () => {
  const me = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!me) return;
    const socket = getSocket();
    const onUpdate = (update: ProfileUpdate) => {
      dispatch(api.util.invalidateTags(['Chat', 'User', 'Profile']));
      if (update._id !== me._id) return;
      const mine = { ...me, ...update };
      storeUser(mine);
      dispatch(profileChanged(mine));
    };
    socket.on('user updated', onUpdate);
    return () => {
      socket.off('user updated', onUpdate);
    };
  }, [me, dispatch]);
};
