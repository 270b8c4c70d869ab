import type { ChatView } from '@veil/contracts';
import type { AppDispatch } from '../../app/hooks.ts';
import type { VerifiedGroup, ChatContext } from '../keys/index.ts';
import { fetchChat } from './api/chat-by-id.api.ts';

/**
 * Where messages are shown, for checking them: the chat, its members (the reader too), its
 * changes, and a signed group's verified membership when the caller has it.
 */
export const chatContextOf = (chat: ChatView, myId: string, group?: VerifiedGroup): ChatContext => ({
  chatId: chat._id,
  isGroupChat: chat.isGroupChat,
  memberIds: [...new Set([myId, ...chat.participants.map((p) => p._id)])],
  ...(chat.notices && { notices: chat.notices }),
  ...(group?.status === 'signed' && { membership: group.membership }),
});

/** The chat as loaded (fetched once if it is not), as a context for checking its messages. */
export const loadChatContext = async (
  dispatch: AppDispatch,
  chatId: string,
  myId: string,
): Promise<ChatContext> => chatContextOf(await fetchChat(dispatch, chatId), myId);
