import type { ChatView, PublicUser } from '@veil/contracts';
import { api, listTag } from '../../../lib/api.ts';
import { newGroupId, signedCreation, signingFailed } from '../../keys/index.ts';
import type { SessionState } from '../../../lib/session.slice.ts';
import { onSocketConnect } from '../../../lib/realtime.ts';
import { followNewMessages, type ArrivedMessage } from '../realtime/follow-new-messages.ts';

export const chatsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The user's chats, most recently active first, kept live from the shared socket. */
    getChats: build.query<ChatView[], void>({
      query: () => ({ url: 'chat/getallchats' }),
      providesTags: (chats) => [
        { type: 'Chat', id: listTag },
        ...(chats ?? []).map((c) => ({ type: 'Chat' as const, id: c._id })),
      ],
      async onCacheEntryAdded(
        _arg,
        { updateCachedData, cacheDataLoaded, cacheEntryRemoved, getCacheEntry, dispatch },
      ) {
        const refetchList = () => dispatch(api.util.invalidateTags([{ type: 'Chat', id: listTag }]));
        const onMessage = ({ message }: ArrivedMessage) => {
          const known = getCacheEntry().data?.some((chat) => chat._id === message.chat);
          // A message in a chat we have never listed means someone started a chat with us.
          if (!known) return void refetchList();
          updateCachedData((chats) => {
            const index = chats.findIndex((chat) => chat._id === message.chat);
            const [chat] = chats.splice(index, 1);
            // A new message brings an archived chat back to the list (docs/web.md, "Archive and pins").
            if (chat)
              chats.unshift({
                ...chat,
                updatedAt: message.createdAt,
                ...(chat.archived && { archived: false }),
              });
          });
        };
        // After a reconnect the list may have missed new chats and renames, and so may a list
        // read before the socket's first connection (a group made meanwhile): fetch it again.
        const stopOnConnect = onSocketConnect(refetchList);
        let stopFollowing = () => {};
        try {
          await cacheDataLoaded;
          stopFollowing = followNewMessages(onMessage, { own: true });
        } catch {
          // the entry went away before its first load; nothing to follow
        }
        await cacheEntryRemoved;
        stopFollowing();
        stopOnConnect();
      },
    }),
    /** Everyone in the directory, for the create-group panel (the panel leaves out the current user). */
    getGroupCandidates: build.query<PublicUser[], void>({
      query: () => ({ url: 'user/getallusers' }),
      providesTags: [{ type: 'User', id: listTag }],
    }),
    /** Signed by the creator (docs/crypto.md, "Signed group state"): the group takes the id it signed. */
    createGroupChat: build.mutation<ChatView, { groupName: string; participants: string[] }>({
      queryFn: async (body, queryApi, _extra, baseQuery) => {
        const accountId = (queryApi.getState() as { session: SessionState }).session.data?._id;
        let signedChange;
        try {
          signedChange = accountId
            ? await signedCreation(accountId, newGroupId(), body.groupName, body.participants)
            : null;
        } catch (error) {
          return { error: signingFailed(error) };
        }
        const result = await baseQuery({
          url: 'chat/creategroupchat',
          method: 'POST',
          body: { ...body, ...(signedChange && { signedChange }) },
        });
        return result.error ? { error: result.error } : { data: result.data as ChatView };
      },
      invalidatesTags: [{ type: 'Chat', id: listTag }],
    }),
  }),
});

export const { useGetChatsQuery, useGetGroupCandidatesQuery, useCreateGroupChatMutation } = chatsApi;
