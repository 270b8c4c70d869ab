import type { PublicUser } from '@veil/contracts';
import { useMemo } from 'react';
import { api } from './api.ts';
import { getSocket, onSocketConnect } from './realtime.ts';

/**
 * The account's block list (docs/api.md, "Blocking"), shared by the chats, the Users page and
 * the profile: each answer is the whole list as it now stands.
 */
export const blocksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBlocks: build.query<PublicUser[], void>({
      query: () => ({ url: 'user/blocks' }),
      providesTags: ['Blocks'],
      // A block made in another browser of the account shows here at once; one made while the
      // socket was down (or before its first connection) once it connects, from the first request
      // on so a connect while the first answer is on its way is not missed.
      async onCacheEntryAdded(_arg, { cacheEntryRemoved, dispatch }) {
        const socket = getSocket();
        const refetch = () => void dispatch(blocksApi.util.invalidateTags(['Blocks']));
        socket.on('blocks updated', refetch);
        const stopOnConnect = onSocketConnect(refetch);
        await cacheEntryRemoved;
        socket.off('blocks updated', refetch);
        stopOnConnect();
      },
    }),
    setBlocked: build.mutation<PublicUser[], { userId: string; blocked: boolean }>({
      query: ({ userId, blocked }) => ({ url: `user/blocks/${userId}`, method: blocked ? 'PUT' : 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(blocksApi.util.upsertQueryData('getBlocks', undefined, data));
      },
    }),
  }),
});

export const { useGetBlocksQuery, useSetBlockedMutation } = blocksApi;

/** Whether this account blocked `userId` (false while the list loads). */
export const useBlocked = (userId: string) => useBlockedIds().has(userId);

const noneBlocked: ReadonlySet<string> = new Set();

/** The ids this account blocked, as a set (empty while the list loads). */
export const useBlockedIds = (): ReadonlySet<string> => {
  const { data } = useGetBlocksQuery();
  return useMemo(() => (data ? new Set(data.map((user) => user._id)) : noneBlocked), [data]);
};
