import { current } from '@reduxjs/toolkit';
import type {
  MessageDeletedNotice,
  MessageEditedNotice,
  MessageSignature,
  MessageView,
  ReactionNotice,
  SealedReaction,
} from '@veil/contracts';
import type { GroupPayload } from '@veil/crypto';
import { api } from '../../../lib/api.ts';
import type { ApiError } from '../../../lib/api-error.ts';
import { isOlderEdit, verifyMessage, verifyReaction, verifyReactionRemoval } from '../../keys/index.ts';
import type { BaseQueryCall } from '../../../lib/base-query.ts';
import { decryptAllForUser } from '../crypto.ts';
import { type DisplayMessage } from '../display-message.ts';
import { sendMessageOverHttp } from '../messaging.api.ts';
import { getSocket, onSocketConnect } from '../../../lib/realtime.ts';
import type { AppDispatch } from '../../../app/hooks.ts';
import { loadChatContext } from '../chat-context.ts';
import { holdReceipt, withHeldReceipts } from '../held-receipts.ts';
import { followMessageChanges, type HistoryChange } from './live-message-changes.ts';
import {
  catchUpAfter,
  mergeMessages,
  mergeReread,
  newestSeq,
  type MessageWindow,
} from '../messages.model.ts';
import { followNewMessages, type ArrivedMessage } from '../realtime/follow-new-messages.ts';

export interface HistoryArgs {
  chatId: string;
  /** Whose copy of the message keys to decrypt with. */
  userId: string;
}

export interface PageArgs extends HistoryArgs {
  before?: number;
  after?: number;
}

interface RawPage {
  messages: MessageView[];
  hasMore: boolean;
}

const chatUnavailable: ApiError = {
  kind: 'network',
  status: null,
  statusText: '',
  message: 'Could not load the chat',
};

/** A page of history, decrypted and checked against the chat it is shown in (before it is shown). */
const loadPage = async (
  baseQuery: BaseQueryCall,
  dispatch: AppDispatch,
  { chatId, userId, before, after }: PageArgs,
) => {
  const [result, context] = await Promise.all([
    baseQuery({
      url: `chat/getallmessages/${encodeURIComponent(chatId)}`,
      params: { before, after }, // the server's page size (50)
    }),
    loadChatContext(dispatch, chatId, userId).catch(() => undefined),
  ]);
  if ('error' in result && result.error) return { error: result.error };
  if (!context) return { error: chatUnavailable };
  const page = result.data as RawPage;
  return {
    data: { messages: await decryptAllForUser(page.messages, userId, context), hasMore: page.hasMore },
  };
};

/** Catch-up reads at most this many pages after a reconnect, then leaves the rest to scrolling. */
const maxCatchUpPages = 10;

export const messagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page of history, decrypted: the newest, `before` a seq (scrolling up) or `after` one (catch-up). */
    getMessagePage: build.query<MessageWindow, PageArgs>({
      queryFn: (args, api, _extra, baseQuery) =>
        loadPage(baseQuery as BaseQueryCall, api.dispatch as AppDispatch, args),
      keepUnusedDataFor: 0,
    }),

    /**
     * The open chat's history: the newest page, then older pages merged in as the user scrolls
     * up, live messages, changes and read receipts from the shared socket, and after a
     * reconnect whatever arrived meanwhile and the newest loaded messages again, for the edits,
     * deletions and reactions made to them while the socket was down (`catchUpAfter`).
     */
    getMessages: build.query<MessageWindow, HistoryArgs>({
      queryFn: (args, api, _extra, baseQuery) =>
        loadPage(baseQuery as BaseQueryCall, api.dispatch as AppDispatch, args),
      providesTags: (_data, _error, { chatId }) => [{ type: 'Messages', id: chatId }],
      async onCacheEntryAdded(
        { chatId, userId },
        { updateCachedData, cacheDataLoaded, cacheEntryRemoved, getCacheEntry, dispatch },
      ) {
        const socket = getSocket();
        const merge = (incoming: DisplayMessage[]) =>
          updateCachedData((draft) => {
            draft.messages = mergeMessages(current(draft).messages, withHeldReceipts(incoming));
          });
        // Live events can arrive before the first page has loaded; they wait here instead of being lost.
        let loaded = false;
        const waiting: (() => void)[] = [];
        const whenLoaded = (apply: () => void) => (loaded ? apply() : waiting.push(apply));

        const onMessage = ({ message, read }: ArrivedMessage) => {
          if (message.chat !== chatId) return;
          void read({ userId, dispatch: dispatch as AppDispatch }).then((display) =>
            whenLoaded(() => merge([display])),
          );
        };
        const onSeen = (seen: { chatId: string; messageId: string; userId: string }) => {
          if (seen.chatId !== chatId) return;
          whenLoaded(() =>
            updateCachedData((draft) => {
              const target = draft.messages.find((m) => m._id === seen.messageId);
              if (target) target.seenBy[seen.userId] = true;
              else holdReceipt(seen.messageId, seen.userId);
            }),
          );
        };
        const catchUp = async () => {
          if (!loaded) return; // the first page, still loading, brings everything
          let after = catchUpAfter(getCacheEntry().data?.messages ?? [], userId);
          for (let page = 0; page < maxCatchUpPages; page += 1) {
            const result = await dispatch(
              messagesApi.endpoints.getMessagePage.initiate(
                { chatId, userId, after },
                { subscribe: false, forceRefetch: true },
              ),
            );
            if (!result.data) return;
            const page = withHeldReceipts(result.data.messages);
            const from = after;
            updateCachedData((draft) => {
              draft.messages = mergeReread(current(draft).messages, page, from);
            });
            const last = newestSeq(result.data.messages);
            if (!result.data.hasMore || last === undefined) return;
            after = last;
          }
        };

        const stopFollowing = followNewMessages(onMessage);
        socket.on('update seen', onSeen);
        const applyChange = (change: HistoryChange) =>
          whenLoaded(() =>
            updateCachedData((draft) => {
              draft.messages = change(current(draft).messages);
            }),
          );
        // An edit is checked as the edited message: its sender, chat and reply with the new text.
        const checkEdit = async (notice: MessageEditedNotice) => {
          const original = getCacheEntry().data?.messages.find((m) => m._id === notice.messageId);
          if (!original) return undefined;
          const { content, iv, encryptedKeys, editedAt, signature } = notice;
          const context = await loadChatContext(dispatch as AppDispatch, chatId, userId);
          const { editSignature: previous, ...rest } = original;
          // An edit older than the one shown (by its sender's counter): served as the newest, it is a rollback.
          if (isOlderEdit(signature, previous))
            return { status: 'failed' as const, reason: 'rolled-back' as const };
          return verifyMessage(
            { ...rest, content, iv, encryptedKeys, editedAt, ...(signature && { editSignature: signature }) },
            context,
            userId,
          );
        };
        const checkReaction = async (notice: ReactionNotice & { reaction: SealedReaction }) => {
          const target = getCacheEntry().data?.messages.find((m) => m._id === notice.messageId);
          if (!target) return false;
          const context = await loadChatContext(dispatch as AppDispatch, chatId, userId);
          return verifyReaction(target, notice.userId, notice.reaction, context, userId);
        };
        const checkRemoval = async (notice: ReactionNotice & { reaction: null }) => {
          const target = getCacheEntry().data?.messages.find((m) => m._id === notice.messageId);
          // Nothing shown to keep: a message not loaded here shows no reaction of it.
          if (!target) return true;
          const context = await loadChatContext(dispatch as AppDispatch, chatId, userId);
          return verifyReactionRemoval(target, notice.userId, notice.removalSignature, context, userId);
        };
        const checkDelete = async (notice: MessageDeletedNotice) => {
          const original = getCacheEntry().data?.messages.find((m) => m._id === notice.messageId);
          if (!original) return undefined;
          const context = await loadChatContext(dispatch as AppDispatch, chatId, userId);
          const { deleteSignature: _none, ...rest } = original;
          const tombstone = { ...rest, deleted: true as const, content: '', iv: '', encryptedKeys: {} };
          return verifyMessage(
            { ...tombstone, ...(notice.signature && { deleteSignature: notice.signature }) },
            context,
            userId,
          );
        };
        const stopChanges = followMessageChanges(socket, chatId, userId, applyChange, {
          checkEdit,
          checkReaction,
          checkRemoval,
          checkDelete,
        });
        const stopOnConnect = onSocketConnect(() => void catchUp());
        try {
          await cacheDataLoaded;
          loaded = true;
          waiting.splice(0).forEach((apply) => apply());
        } catch {
          // removed before it loaded
        }
        await cacheEntryRemoved;
        stopFollowing();
        socket.off('update seen', onSeen);
        stopChanges();
        stopOnConnect();
      },
    }),

    sendGroupMessage: build.mutation<
      { message: MessageView },
      {
        chatId: string;
        payload: GroupPayload & { attachments?: string[]; signature?: MessageSignature };
        clientMessageId: string;
      }
    >({
      queryFn: ({ chatId, payload, clientMessageId }, { signal }, _extra, baseQuery) =>
        sendMessageOverHttp<{ message: MessageView }>(
          baseQuery as BaseQueryCall,
          {
            url: `message/sendGroupMessage/${encodeURIComponent(chatId)}`,
            method: 'POST',
            body: { ...payload, clientMessageId },
          },
          signal,
        ),
    }),
  }),
});

export const { useGetMessagesQuery, useSendGroupMessageMutation } = messagesApi;
