import type { PublicUser } from '@veil/contracts';
import { api, listTag } from '../../../lib/api.ts';

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<PublicUser, void>({
      query: () => ({ url: 'user/getuser' }),
      providesTags: ['Profile'],
    }),
    /** multipart: username, optional profilePicture. Names and pictures show in the directory and chats too. */
    updateProfile: build.mutation<PublicUser, FormData>({
      query: (form) => ({ url: 'user/updateProfile', method: 'PUT', body: form }),
      invalidatesTags: ['Profile', { type: 'User', id: listTag }, { type: 'Chat', id: listTag }],
    }),
    updatePassword: build.mutation<unknown, { currentPassword: string; password: string }>({
      query: (body) => ({ url: 'user/updatePassword', method: 'PUT', body }),
    }),
    /** A password change revokes every refresh token; logging in again with the new password gets fresh ones. */
    reauthenticate: build.mutation<
      { user: { accesstoken: string; refreshtoken: string } },
      { username: string; password: string }
    >({
      query: (body) => ({ url: 'user/login', method: 'POST', body }),
    }),
  }),
});

export const {
  useGetProfileQuery,
  useUpdateProfileMutation,
  useUpdatePasswordMutation,
  useReauthenticateMutation,
} = profileApi;
