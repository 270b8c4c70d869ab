import type { ChatUnread, MessageRef, MessageView } from '@veil/contracts';
import { api } from '../../../lib/api.ts';
import { getSocket, onSocketConnect } from '../../../lib/realtime.ts';
import { isReadingChat } from '../open-chat.ts';
import { prefetchPreviewKeyLogs } from '../previews.ts';
import { followNewMessages, type ArrivedMessage } from '../realtime/follow-new-messages.ts';

/** The caller's unread state by chat id. */
export type UnreadByChat = Record<string, ChatUnread>;

/** Reports of one's own reading come in bursts (a batch every 2 s, several devices): one refetch. */
const refetchDelayMs = 300;

/** A message as it arrived live: whether it counted depends on what the user was reading then. */
interface Arrival {
  message: MessageView;
  own: boolean;
  counts: boolean;
  at: number;
}

const countArrival = (byChat: UnreadByChat, { message, own, counts }: Arrival) => {
  const entry = byChat[message.chat] ?? { chatId: message.chat, unread: 0, lastMessage: null };
  // An answer that already counted it (asked for while it was on its way) is not counted over.
  if (entry.lastMessage && entry.lastMessage.seq >= message.seq) return;
  byChat[message.chat] = {
    ...entry,
    // Sending reads the chat, from whichever device it was sent.
    unread: own ? 0 : entry.unread + (counts ? 1 : 0),
    lastMessage: message,
  };
};

export const unreadApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Unread counts and each chat's newest message, kept live: a message from someone else
     * counts at once, one the user sent from any device reads the chat; what the user read (on any of their devices: the server sends `update
     * seen` to every member, the reader included) and anything missed while the socket was down
     * comes from the server, which keeps the counts.
     */
    getUnread: build.query<UnreadByChat, string>({
      query: () => ({ url: 'message/unread' }),
      transformResponse: (chats: ChatUnread[]) =>
        Object.fromEntries(chats.map((chat) => [chat.chatId, chat])),
      keepUnusedDataFor: 0,
      async onCacheEntryAdded(
        myId,
        { updateCachedData, getCacheEntry, cacheDataLoaded, cacheEntryRemoved, dispatch },
      ) {
        // Messages counted while the server was being asked again: an answer computed before one
        // of them arrived but landing after it would uncount it, so they are counted over it.
        let arrivals: Arrival[] = [];
        let questionsOut = 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const askAgain = async () => {
          const askedAt = performance.now();
          questionsOut += 1;
          await dispatch(
            unreadApi.endpoints.getUnread.initiate(myId, { subscribe: false, forceRefetch: true }),
          );
          questionsOut -= 1;
          // What arrived before the question is in the answer.
          const unanswered = arrivals.filter((arrival) => arrival.at >= askedAt);
          updateCachedData((byChat) => unanswered.forEach((arrival) => countArrival(byChat, arrival)));
          arrivals = questionsOut ? unanswered : [];
        };
        const refetch = () => {
          clearTimeout(timer);
          timer = setTimeout(() => void askAgain(), refetchDelayMs);
        };
        const onMessage = ({ message }: ArrivedMessage) => {
          const own = message.sender._id === myId;
          const arrival = {
            message,
            own,
            counts: !own && !isReadingChat(message.chat),
            at: performance.now(),
          };
          if (questionsOut) arrivals.push(arrival);
          updateCachedData((byChat) => countArrival(byChat, arrival));
        };
        const onSeen = ({ userId }: { userId: string }) => {
          if (userId === myId) refetch();
        };
        // The newest message disappeared: the list shows no preview of it (the server's next
        // answer has none either).
        const onExpired = ({ chatId, messageId }: MessageRef) =>
          updateCachedData((byChat) => {
            const entry = byChat[chatId];
            if (entry?.lastMessage?._id === messageId) byChat[chatId] = { ...entry, lastMessage: null };
          });
        // Deleted for me (on this device or another): the list previews the newest message left,
        // which the server knows.
        const onHidden = ({ chatId, messageId }: MessageRef) => {
          if (getCacheEntry().data?.[chatId]?.lastMessage?._id === messageId) refetch();
        };
        const socket = getSocket();
        // A message stored after the first answer but before the socket joined the user's room
        // reaches no listener: every connection, the first included, asks the server again.
        const stopOnConnect = onSocketConnect(refetch);
        let stopFollowing = () => {};
        try {
          const { data } = await cacheDataLoaded;
          prefetchPreviewKeyLogs(
            myId,
            Object.values(data).map((chat) => chat.lastMessage),
          );
          stopFollowing = followNewMessages(onMessage, { own: true });
          socket.on('update seen', onSeen);
          socket.on('message expired', onExpired);
          socket.on('message hidden', onHidden);
          // Connected before the first answer came: what arrived in between is asked for now.
          if (socket.connected) refetch();
        } catch {
          // removed before it loaded
        }
        await cacheEntryRemoved;
        clearTimeout(timer);
        stopFollowing();
        socket.off('update seen', onSeen);
        socket.off('message expired', onExpired);
        socket.off('message hidden', onHidden);
        stopOnConnect();
      },
    }),
  }),
});

export const { useGetUnreadQuery } = unreadApi;

/** The unread total shown in the tab's title and icon. */
export const unreadTotal = (byChat: UnreadByChat | undefined) =>
  Object.values(byChat ?? {}).reduce((sum, chat) => sum + chat.unread, 0);

/** Records the user's own message as the chat's newest, and the chat as read (sending reads it). */
export const rememberOwnMessage = (myId: string, message: MessageView) =>
  unreadApi.util.updateQueryData('getUnread', myId, (byChat) => {
    byChat[message.chat] = { chatId: message.chat, unread: 0, lastMessage: message };
  });
