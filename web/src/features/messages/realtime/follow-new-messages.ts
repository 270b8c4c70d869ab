import type { MessageView } from '@veil/contracts';
import type { AppDispatch } from '../../../app/hooks.ts';
import { decryptForUser } from '../crypto.ts';
import { type DisplayMessage } from '../display-message.ts';
import { getSocket } from '../../../lib/realtime.ts';
import { loadChatContext } from '../chat-context.ts';
import { createNewMessageRouter, type NewMessage } from './new-messages.ts';

/** Who reads a message: the account, and the store its chat's context is loaded through. */
export interface MessageReader {
  userId: string;
  dispatch: AppDispatch;
}

export type ArrivedMessage = NewMessage<DisplayMessage, MessageReader>;

/** Checked as its chat checks it: a message whose signature does not hold shows why, never its text. */
const readMessage = async (message: MessageView, { userId, dispatch }: MessageReader) =>
  decryptForUser(message, userId, await loadChatContext(dispatch, message.chat, userId));

let router: ReturnType<typeof createNewMessageRouter<DisplayMessage, MessageReader>> | undefined;

/** Follows new messages on the tab's socket (`createNewMessageRouter`) until the returned function is called. */
export const followNewMessages = (follower: (arrived: ArrivedMessage) => void, options?: { own?: boolean }) =>
  (router ??= createNewMessageRouter(getSocket(), readMessage)).follow(follower, options);
