/**
 * Chats and their messages as data: the endpoints, the models, new messages as they come, the outbox.
 * This file is the feature's public entry point: other features import only from here.
 */
export { fetchChat, useGetChatByIdQuery } from './api/chat-by-id.api.ts';
export {
  chatsApi,
  useCreateGroupChatMutation,
  useGetChatsQuery,
  useGetGroupCandidatesQuery,
} from './api/chats.api.ts';
export { type HistoryChange } from './api/live-message-changes.ts';
export {
  messagesApi,
  useGetMessagesQuery,
  useSendGroupMessageMutation,
  type HistoryArgs,
} from './api/messages.api.ts';
export { useGetUnreadQuery, type UnreadByChat } from './api/unread.api.ts';
export { chatContextOf, loadChatContext } from './chat-context.ts';
export { encryptForGroup, readSealedForUser, withoutCommitment } from './crypto.ts';
export { withCurrentMembers } from './current-members.ts';
export { type DisplayMessage } from './display-message.ts';
export {
  canChangeForEveryone,
  changeMessage,
  edited,
  reacted,
  reactionCounts,
  tombstone,
  withoutMessage,
} from './message-changes.ts';
export { orderFlags, type OrderFlag } from './message-order.ts';
export {
  chatTitle,
  isSeenByOthers,
  matchesChatFilter,
  mergeMessages,
  newestSeq,
  otherMemberIds,
  replyPreview,
} from './messages.model.ts';
export { isReadingChat, setOpenChat } from './open-chat.ts';
export { messageDiscarded, retryRequested, selectOutbox, type OutboxItem } from './outbox/outbox.slice.ts';
export { useQueueMessage } from './outbox/use-outbox.ts';
export { decryptPreview, forgetPreview, knownPreview } from './previews.ts';
export { followNewMessages, type ArrivedMessage } from './realtime/follow-new-messages.ts';
