import { api } from '../../../lib/api.ts';
import { getSocket } from '../../../lib/realtime.ts';

/**
 * Online contacts, as ids, from the shared socket: `online list` replaces the set (sent on
 * every connection and after `setup`), `online` / `offline` change one entry.
 */
export const presenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOnlineUsers: build.query<string[], string>({
      queryFn: () => ({ data: [] }),
      async onCacheEntryAdded(userId, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        const socket = getSocket();
        const onList = (ids: string[]) => updateCachedData(() => [...new Set(ids)]);
        const onOnline = (id: string) =>
          updateCachedData((ids) => {
            if (!ids.includes(id)) ids.push(id);
          });
        const onOffline = (id: string) => updateCachedData((ids) => ids.filter((known) => known !== id));
        // Without a connection nobody's presence is known: no one is shown online until the
        // next `online list`, sent when the socket connects again.
        const onDisconnect = () => updateCachedData(() => []);
        try {
          await cacheDataLoaded;
          socket.on('online list', onList);
          socket.on('online', onOnline);
          socket.on('offline', onOffline);
          socket.on('disconnect', onDisconnect);
          // The list sent at connection may predate this entry: `setup` makes the server send it again.
          if (socket.connected) socket.emit('setup', { _id: userId });
        } catch {
          // removed before it loaded
        }
        await cacheEntryRemoved;
        socket.off('online list', onList);
        socket.off('online', onOnline);
        socket.off('offline', onOffline);
        socket.off('disconnect', onDisconnect);
      },
    }),
  }),
});

export const { useGetOnlineUsersQuery } = presenceApi;
