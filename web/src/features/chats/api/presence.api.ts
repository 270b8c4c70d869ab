import type { LastSeen, LastSeenNotice } from '@veil/contracts';
import { api } from '../../../lib/api.ts';
import { getSocket } from '../../../lib/realtime.ts';

/** What the server lets this account know of its contacts' presence. */
export interface Presence {
  /** Contacts online now, as ids. */
  online: string[];
  /** When contacts who are offline were last seen (ISO 8601), by id; only those the server shares. */
  lastSeen: Record<string, string>;
}

const nobody: Presence = { online: [], lastSeen: {} };

/**
 * Presence from the shared socket: `online list` and `last seen list` replace what is known
 * (both sent on every connection and after `setup`), `online` / `offline` / `last seen` change
 * one entry. The server decides what is shared (privacy switches); this only keeps it.
 */
export const presenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPresence: build.query<Presence, string>({
      queryFn: () => ({ data: nobody }),
      async onCacheEntryAdded(userId, { updateCachedData, cacheDataLoaded, cacheEntryRemoved }) {
        const socket = getSocket();
        const onList = (ids: string[]) =>
          updateCachedData((presence) => {
            presence.online = [...new Set(ids)];
          });
        const onOnline = (id: string) =>
          updateCachedData((presence) => {
            if (!presence.online.includes(id)) presence.online.push(id);
          });
        const onOffline = (id: string) =>
          updateCachedData((presence) => {
            presence.online = presence.online.filter((known) => known !== id);
          });
        const onLastSeenList = (entries: LastSeen[]) =>
          updateCachedData((presence) => {
            presence.lastSeen = Object.fromEntries(entries.map(({ userId: id, at }) => [id, at]));
          });
        const onLastSeen = ({ userId: id, at }: LastSeenNotice) =>
          updateCachedData((presence) => {
            if (at === null) delete presence.lastSeen[id];
            else presence.lastSeen[id] = at;
          });
        // Without a connection nobody's presence is known: no one is shown online (or last seen)
        // until the next lists, sent when the socket connects again.
        const onDisconnect = () => updateCachedData(() => nobody);
        try {
          await cacheDataLoaded;
          socket.on('online list', onList);
          socket.on('online', onOnline);
          socket.on('offline', onOffline);
          socket.on('last seen list', onLastSeenList);
          socket.on('last seen', onLastSeen);
          socket.on('disconnect', onDisconnect);
          // The lists sent at connection may predate this entry: `setup` makes the server send them again.
          if (socket.connected) socket.emit('setup', { _id: userId });
        } catch {
          // removed before it loaded
        }
        await cacheEntryRemoved;
        socket.off('online list', onList);
        socket.off('online', onOnline);
        socket.off('offline', onOffline);
        socket.off('last seen list', onLastSeenList);
        socket.off('last seen', onLastSeen);
        socket.off('disconnect', onDisconnect);
      },
    }),
  }),
});

export const { useGetPresenceQuery } = presenceApi;
