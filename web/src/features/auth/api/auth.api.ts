import type { PublicUser } from '@veil/contracts';
import { api } from '../../../lib/api.ts';

export interface LoginResult {
  user: { accesstoken: string; refreshtoken: string; loggedUser: PublicUser };
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResult, { username: string; password: string }>({
      query: (body) => ({ url: 'user/login', method: 'POST', body }),
    }),
    /** multipart: username, password, publicKey, optional profilePicture. */
    register: build.mutation<{ user: PublicUser }, FormData>({
      query: (form) => ({ url: 'user/register', method: 'POST', body: form }),
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation } = authApi;
