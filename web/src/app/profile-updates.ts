import type { ProfileUpdate, PublicUser } from '@veil/contracts';
import { useEffect } from 'react';
import { profileApi } from '../features/profile/api/profile.api.ts';
import { api } from '../lib/api.ts';
import { getSocket, onSocketConnect } from '../lib/realtime.ts';
import { profileChanged, selectCurrentUser } from '../lib/session.slice.ts';
import { storeUser } from '../lib/storage.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';

/**
 * Renames and new pictures, live (`user updated`): chats (their names, participants and
 * pictures) and the directory are read again; the user's own record follows a change made on
 * another device. `user updated` reaches only a connected socket, so every connection (the first
 * included: this starts before the socket connects) reads the directory and the user's own record
 * again; the chat list and the open chat read theirs again on connect themselves.
 */
export const useProfileUpdates = () => {
  const me = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!me) return;
    let stopped = false;
    const keep = (mine: PublicUser) => {
      if (stopped || (mine.username === me.username && mine.profilePicture === me.profilePicture)) return;
      storeUser(mine);
      dispatch(profileChanged(mine));
    };
    const socket = getSocket();
    const onUpdate = (update: ProfileUpdate) => {
      dispatch(api.util.invalidateTags(['Chat', 'User', 'Profile']));
      if (update._id === me._id) keep({ ...me, ...update });
    };
    const onConnect = () => {
      dispatch(api.util.invalidateTags(['User']));
      const own = dispatch(profileApi.endpoints.getProfile.initiate(undefined, { forceRefetch: true }));
      void own
        .unwrap()
        .then((mine) => keep({ ...me, ...mine }))
        // Not read this time: the next connection or `user updated` brings it.
        .catch(() => undefined)
        .finally(() => own.unsubscribe());
    };
    socket.on('user updated', onUpdate);
    const stopOnConnect = onSocketConnect(onConnect);
    return () => {
      stopped = true;
      socket.off('user updated', onUpdate);
      stopOnConnect();
    };
  }, [me, dispatch]);
};
