import { current } from '@reduxjs/toolkit';
import type { ChatView, PublicUser } from '@veil/contracts';
import { editVersionOf, encodeMessageContent, frankText, type MessageMention } from '@veil/crypto';
import { useCallback, useMemo, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { errorText } from '../../../lib/api-error.ts';
import { t } from '../../../lib/i18n.ts';
import {
  encryptForGroup,
  withoutCommitment,
  type DisplayMessage,
  type HistoryChange,
  messagesApi,
  useSendGroupMessageMutation,
  withCurrentMembers,
  changeMessage,
  edited,
  reacted,
  tombstone,
  withoutMessage,
} from '../../messages/index.ts';
import type { Padding } from '@veil/crypto';
import {
  useDeleteMessageMutation,
  useEditMessageMutation,
  useSetReactionMutation,
} from '../api/message-actions.api.ts';
import { api, listTag } from '../../../lib/api.ts';
import { signOutgoing, signOutgoingAction, type OutgoingAction } from '../../keys/index.ts';

/**
 * The version an edit replaces, as its signature names it: the message's client id for its first
 * edit, else `editVersionOf` the edit shown now (null: a message sent without a client id).
 */
const replacedVersionOf = async (message: DisplayMessage): Promise<string | null> =>
  message.editSignature ? editVersionOf(message.editSignature.value) : (message.clientMessageId ?? null);

export interface MessageActions {
  /** `mentions`: the members the new text names (they replace the old ones). */
  edit(message: DisplayMessage, text: string, mentions?: MessageMention[]): Promise<boolean>;
  deleteForEveryone(message: DisplayMessage): Promise<void>;
  deleteForMe(message: DisplayMessage): Promise<void>;
  /** Sets `emoji` as my reaction, or takes it back when it already is. */
  toggleReaction(message: DisplayMessage, emoji: string): Promise<void>;
  copy(message: DisplayMessage): Promise<void>;
  /** Sends the message's text to another chat, encrypted anew for that chat's members. */
  forward(message: DisplayMessage, to: ChatView): Promise<boolean>;
}

/**
 * What the actions menu does to a message of the open chat. An edit and a reaction are
 * encrypted for the chat's current members, like a new message; if membership changed since
 * the chat was loaded, the server refuses the key map and the members are read again once.
 * Each change shows at once from the server's answer; the socket's copy of it changes nothing.
 */
export const useMessageActions = (
  chat: ChatView,
  me: PublicUser,
): { actions: MessageActions; error: string; clearError: () => void } => {
  const dispatch = useAppDispatch();
  const [editMessage] = useEditMessageMutation();
  const [deleteMessage] = useDeleteMessageMutation();
  const [setReaction] = useSetReactionMutation();
  const [sendGroupMessage] = useSendGroupMessageMutation();
  const [error, setError] = useState('');

  const update = useCallback(
    (change: HistoryChange) =>
      dispatch(
        messagesApi.util.updateQueryData('getMessages', { chatId: chat._id, userId: me._id }, (draft) => {
          draft.messages = change(current(draft).messages);
        }),
      ),
    [dispatch, chat._id, me._id],
  );

  /** Encrypts `text` for the members of `target` and sends it with `send` (see `withCurrentMembers`). */
  const sealForMembers = useCallback(
    <T>(
      text: string,
      send: (payload: Awaited<ReturnType<typeof encryptForGroup>>, memberIds: string[]) => Promise<T>,
      target: ChatView = chat,
      padding: Padding = 'message',
    ) =>
      withCurrentMembers(dispatch, target, async (participants) => {
        const memberIds = [...new Set([...participants.map((p) => p._id), me._id])];
        return send(await encryptForGroup(text, me._id, memberIds, undefined, padding), memberIds);
      }),
    [dispatch, chat, me._id],
  );

  /**
   * Signs this user's `kind` of action on a message of this chat, now, over what it seals (an
   * edit: with the franking tag of its new text).
   */
  const signAction = useCallback(
    (
      kind: OutgoingAction['kind'],
      target: string,
      memberIds: string[],
      sealed: Awaited<ReturnType<typeof encryptForGroup>> | null,
      replaces?: string | null,
      franking?: string,
    ) =>
      signOutgoingAction({
        replaces,
        kind,
        target,
        chatId: chat._id,
        isGroupChat: chat.isGroupChat,
        memberIds,
        senderId: me._id,
        createdAt: new Date().toISOString(),
        sealed: sealed && {
          ciphertext: sealed.encryptedMessage,
          iv: sealed.iv,
          encryptedKeys: sealed.encryptedKeys,
          keyCommitment: sealed.keyCommitment,
          ...(franking !== undefined && { franking }),
        },
      }),
    [chat._id, chat.isGroupChat, me._id],
  );

  /** Runs one action; a failure is shown, not thrown. */
  const guarded = useCallback(async (what: string, action: () => Promise<void>): Promise<boolean> => {
    setError('');
    try {
      await action();
      return true;
    } catch (failure) {
      setError(t('messages.failedAction', { what, reason: errorText(failure) || t('send.unknown') }));
      return false;
    }
  }, []);

  const actions = useMemo<MessageActions>(
    () => ({
      edit: (message, text, mentions = []) =>
        guarded(t('messages.editFailed'), async () => {
          // The message's files stay with it: they are part of what is sealed again, with the
          // mentions the new text makes, and a fresh franking key, so the new text can be reported.
          const named = chat.isGroupChat ? mentions : [];
          const franking = await frankText(text);
          const sealedText = encodeMessageContent({
            text,
            attachments: message.attachments ?? [],
            mentions: named,
            franking: franking.key,
          });
          const { message: stored } = await sealForMembers(sealedText, async (payload, memberIds) => {
            const signature = await signAction(
              'edit',
              message._id,
              memberIds,
              payload,
              await replacedVersionOf(message),
              franking.tag,
            );
            return editMessage({
              messageId: message._id,
              payload: withoutCommitment(payload),
              signature,
            }).unwrap();
          });
          const { content, iv, encryptedKeys, editedAt = new Date().toISOString() } = stored;
          const change = {
            content,
            iv,
            encryptedKeys,
            editedAt,
            decryptedContent: text,
            readState: 'read' as const,
            frankingKey: franking.key,
            ...(stored.editSignature && { editSignature: stored.editSignature }),
            ...(named.length && { mentions: named }),
            // What this browser just sealed and signed.
            verification: { status: 'own' as const },
          };
          update((messages) => changeMessage(messages, message._id, (m) => edited(m, change)));
        }),
      deleteForEveryone: async (message) => {
        await guarded(t('messages.deleteFailed'), async () => {
          const memberIds = [...new Set([...chat.participants.map((p) => p._id), me._id])];
          const signature = await signAction('delete', message._id, memberIds, null);
          await deleteMessage({ messageId: message._id, scope: 'everyone', signature }).unwrap();
          const own = { verification: { status: 'own' as const } };
          update((messages) => changeMessage(messages, message._id, (m) => ({ ...tombstone(m), ...own })));
        });
      },
      deleteForMe: async (message) => {
        await guarded(t('messages.deleteFailed'), async () => {
          await deleteMessage({ messageId: message._id, scope: 'me' }).unwrap();
          update((messages) => withoutMessage(messages, message._id));
        });
      },
      toggleReaction: async (message, emoji) => {
        await guarded(t('messages.reactFailed'), async () => {
          const taken = message.reactionTexts[me._id] === emoji;
          if (taken) {
            const memberIds = [...new Set([...chat.participants.map((p) => p._id), me._id])];
            const signature = await signAction('reaction-removal', message._id, memberIds, null);
            await setReaction({ messageId: message._id, sealed: null, signature }).unwrap();
          } else
            await sealForMembers(
              emoji,
              async (sealed, memberIds) => {
                const signature = await signAction('reaction', message._id, memberIds, sealed);
                return setReaction({
                  messageId: message._id,
                  sealed: withoutCommitment(sealed),
                  signature,
                }).unwrap();
              },
              chat,
              'reaction',
            );
          update((messages) =>
            changeMessage(messages, message._id, (m) => reacted(m, me._id, taken ? null : emoji)),
          );
        });
      },
      forward: (message, to) =>
        guarded(t('messages.forwardFailed'), async () => {
          const franking = await frankText(message.decryptedContent);
          await sealForMembers(
            // Marked as forwarded inside the ciphertext, as Signal and WhatsApp label it.
            encodeMessageContent({
              text: message.decryptedContent,
              attachments: [],
              forwarded: true,
              franking: franking.key,
            }),
            async (payload, memberIds) => {
              // A new message of mine in that chat, signed as every message is.
              const clientMessageId = crypto.randomUUID();
              const signature = await signOutgoing({
                chatId: to._id,
                isGroupChat: to.isGroupChat,
                memberIds,
                senderId: me._id,
                clientMessageId,
                replyTo: null,
                createdAt: new Date().toISOString(),
                sealed: {
                  ciphertext: payload.encryptedMessage,
                  iv: payload.iv,
                  encryptedKeys: payload.encryptedKeys,
                  keyCommitment: payload.keyCommitment,
                  franking: franking.tag,
                },
              });
              const signed = { ...withoutCommitment(payload), ...(signature && { signature }) };
              return sendGroupMessage({ chatId: to._id, payload: signed, clientMessageId }).unwrap();
            },
            to,
          );
          dispatch(
            api.util.invalidateTags([
              { type: 'Messages', id: to._id },
              { type: 'Chat', id: listTag },
            ]),
          );
        }),
      copy: async (message) => {
        await guarded(t('messages.copyFailed'), () =>
          navigator.clipboard.writeText(message.decryptedContent),
        );
      },
    }),
    [
      guarded,
      sealForMembers,
      signAction,
      editMessage,
      deleteMessage,
      setReaction,
      sendGroupMessage,
      dispatch,
      update,
      me._id,
      chat.isGroupChat,
    ],
  );
  const clearError = useCallback(() => setError(''), []);
  return { actions, error, clearError };
};
