import type { KeyBackupSummary, KeyStatus } from '@veil/contracts';
import type { KeyBackup, SignedKeyLogEntry } from '@veil/crypto';
import { api } from '../../../lib/api.ts';

/** The account's own key status and encrypted key backup (docs/api.md). */
export const keyBackupApi = api.injectEndpoints({
  endpoints: (build) => ({
    getKeyStatus: build.query<KeyStatus, void>({
      query: () => ({ url: 'user/keyStatus' }),
      providesTags: ['KeyStatus'],
    }),
    /** A mutation, not a query: downloads are counted by the server, so nothing fetches one by itself. */
    downloadKeyBackup: build.mutation<{ backup: KeyBackup; storedAt: string }, void>({
      query: () => ({ url: 'user/keyBackup' }),
    }),
    storeKeyBackup: build.mutation<KeyBackupSummary, KeyBackup>({
      query: (backup) => ({ url: 'user/keyBackup', method: 'PUT', body: { backup } }),
      invalidatesTags: ['KeyStatus'],
    }),
    /** "I lost my key: start fresh": the signed `reset` entry publishing new keys, and their backup. */
    resetKeys: build.mutation<KeyStatus, { entry: SignedKeyLogEntry; backup: KeyBackup }>({
      query: (body) => ({ url: 'user/resetKeys', method: 'POST', body }),
      invalidatesTags: ['KeyStatus', 'Messages'],
    }),
  }),
});

export const {
  useGetKeyStatusQuery,
  useDownloadKeyBackupMutation,
  useStoreKeyBackupMutation,
  useResetKeysMutation,
} = keyBackupApi;
