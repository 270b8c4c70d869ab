import type { PublicUser } from '@veil/contracts';
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
  }),
});

export const { useSearchUsersQuery } = usersApi;
