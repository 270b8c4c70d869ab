import { useEffect } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { api, listTag } from '../../../lib/api.ts';
import { getSocket } from '../../../lib/realtime.ts';

/**
 * A group changed (members, admins, name, picture; `chat updated` reaches its members before
 * and after), or this account archived or pinned a chat in another browser: the chat and the
 * chat list are fetched again, so a new member sees the group at once, a removed one sees it go,
 * and every browser of the account shows the same list.
 */
export const useGroupUpdates = (): void => {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const socket = getSocket();
    const onUpdate = ({ chatId }: { chatId: string }) =>
      dispatch(
        api.util.invalidateTags([
          { type: 'Chat', id: chatId },
          { type: 'Chat', id: listTag },
        ]),
      );
    socket.on('chat updated', onUpdate);
    return () => {
      socket.off('chat updated', onUpdate);
    };
  }, [dispatch]);
};
