import type { ChatView } from '@veil/contracts';
import type { AppDispatch } from '../../../app/hooks.ts';
import { api } from '../../../lib/api.ts';
import { onSocketConnect } from '../../../lib/realtime.ts';

/**
 * One chat as the server sees it, cached per chat. Apart from the chat list (chats.api.ts), which
 * follows new messages, and so reads them through the chat context this query feeds.
 */
export const chatByIdApi = api.injectEndpoints({
  endpoints: (build) => ({
    getChatById: build.query<ChatView, string>({
      query: (chatId) => ({ url: `chat/getchatbyid/${encodeURIComponent(chatId)}` }),
      providesTags: (_chat, _error, chatId) => [{ type: 'Chat', id: chatId }],
      async onCacheEntryAdded(chatId, { cacheEntryRemoved, dispatch }) {
        // `chat updated` reaches only a connected socket: a group change made while it was down,
        // or before its first connection (a page just loaded, its first answer still on its
        // way included), is fetched when it connects.
        const stopOnConnect = onSocketConnect(() =>
          dispatch(api.util.invalidateTags([{ type: 'Chat', id: chatId }])),
        );
        await cacheEntryRemoved;
        stopOnConnect();
      },
    }),
  }),
});

export const { useGetChatByIdQuery } = chatByIdApi;

/**
 * The chat as loaded, fetched if it is not (fetched again with `fresh`). Subscribed while it
 * waits: an entry nobody subscribes to is dropped when its tags are invalidated (a group change,
 * a socket connect), and one dropped while its answer was on its way would read as nothing.
 */
export const fetchChat = async (
  dispatch: AppDispatch,
  chatId: string,
  { fresh = false } = {},
): Promise<ChatView> => {
  const request = dispatch(chatByIdApi.endpoints.getChatById.initiate(chatId, { forceRefetch: fresh }));
  try {
    return await request.unwrap();
  } finally {
    request.unsubscribe();
  }
};
