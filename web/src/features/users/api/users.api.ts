import type { ChatView, PublicUser } from '@veil/contracts';
import { api, listTag } from '../../../lib/api.ts';

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The directory: everyone when the search text is empty, else a case-insensitive match. */
    searchUsers: build.query<PublicUser[], string>({
      query: (text) =>
        text.trim()
          ? { url: 'user/searchuser', params: { username: text.trim() } }
          : { url: 'user/getallusers' },
      providesTags: [{ type: 'User', id: listTag }],
    }),
    /** The one-to-one chat with a user, created on first use; nothing is sent. */
    openDirectChat: build.mutation<ChatView, string>({
      query: (userId) => ({ url: `chat/direct/${encodeURIComponent(userId)}`, method: 'POST' }),
      invalidatesTags: [{ type: 'Chat', id: listTag }],
    }),
  }),
});

export const { useSearchUsersQuery, useOpenDirectChatMutation } = usersApi;
