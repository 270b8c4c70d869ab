import type { Privacy } from '@veil/contracts';
import { api } from '../../../lib/api.ts';

/** The account's privacy switches; the server enforces them (docs/api.md, "Privacy"). */
export const privacyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPrivacy: build.query<Privacy, void>({
      query: () => ({ url: 'user/privacy' }),
      providesTags: ['Profile'],
    }),
    setPrivacy: build.mutation<Privacy, Privacy>({
      query: (body) => ({ url: 'user/privacy', method: 'PUT', body }),
      invalidatesTags: ['Profile'],
    }),
  }),
});

export const { useGetPrivacyQuery, useSetPrivacyMutation } = privacyApi;
