import type { ChatView } from '@veil/contracts';
import { api, listTag } from '../../../lib/api.ts';

type Pref = 'archive' | 'pin';

/** Archiving and pinning a chat in this account's own list (docs/api.md, "Archived and pinned chats"). */
export const chatPrefsApi = api.injectEndpoints({
  endpoints: (build) => ({
    setChatPref: build.mutation<ChatView, { chatId: string; pref: Pref; on: boolean }>({
      query: ({ chatId, pref, on }) => ({
        url: `chat/${encodeURIComponent(chatId)}/${pref}`,
        method: on ? 'PUT' : 'DELETE',
      }),
      invalidatesTags: (_result, _error, { chatId }) => [
        { type: 'Chat', id: chatId },
        { type: 'Chat', id: listTag },
      ],
    }),
  }),
});

export const { useSetChatPrefMutation } = chatPrefsApi;
