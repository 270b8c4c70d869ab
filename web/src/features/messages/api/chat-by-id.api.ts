import type { ChatView } from '@veil/contracts';
import { api } from '../../../lib/api.ts';

/**
 * One chat as the server sees it, cached per chat. Apart from the chat list (chats.api.ts), which
 * follows new messages, and so reads them through the chat context this query feeds.
 */
export const chatByIdApi = api.injectEndpoints({
  endpoints: (build) => ({
    getChatById: build.query<ChatView, string>({
      query: (chatId) => ({ url: `chat/getchatbyid/${encodeURIComponent(chatId)}` }),
      providesTags: (_chat, _error, chatId) => [{ type: 'Chat', id: chatId }],
    }),
  }),
});

export const { useGetChatByIdQuery } = chatByIdApi;
