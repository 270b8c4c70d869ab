import type { ChatView } from '@veil/contracts';
import type { AppDispatch } from '../../app/hooks.ts';
import { isApiError } from '../../lib/api-error.ts';
import { fetchChat } from './api/chat-by-id.api.ts';

/**
 * Runs `attempt` with the chat's members as loaded. Anything encrypted for a chat is keyed for
 * its current members; if membership changed since the chat was loaded, the server refuses the
 * key map (KEY_MAP_MISMATCH): the members are read again once and `attempt` runs with them.
 */
export const withCurrentMembers = async <T>(
  dispatch: AppDispatch,
  chat: ChatView,
  attempt: (participants: ChatView['participants']) => Promise<T>,
): Promise<T> => {
  try {
    return await attempt(chat.participants);
  } catch (failure) {
    if (!isApiError(failure) || failure.code !== 'KEY_MAP_MISMATCH') throw failure;
    const fresh = await fetchChat(dispatch, chat._id, { fresh: true });
    return attempt(fresh.participants);
  }
};
