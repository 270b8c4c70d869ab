import type { MessageSignature, MessageView } from '@veil/contracts';
import type { GroupPayload } from '@veil/crypto';
import { api } from '../../../lib/api.ts';

interface MessageRef {
  chatId: string;
  messageId: string;
}

const path = (messageId: string) => `message/${encodeURIComponent(messageId)}`;

/** Changes to a stored message: edit, delete, react (docs/api.md, "Changing a message"). */
export const messageActionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    editMessage: build.mutation<
      { message: MessageView },
      { messageId: string; payload: GroupPayload; signature: MessageSignature | null }
    >({
      query: ({ messageId, payload: { encryptedMessage, iv, encryptedKeys }, signature }) => ({
        url: path(messageId),
        method: 'PUT',
        body: { encryptedMessage, iv, encryptedKeys, ...(signature && { signature }) },
      }),
    }),
    deleteMessage: build.mutation<
      MessageRef,
      { messageId: string; scope: 'everyone' | 'me'; signature?: MessageSignature | null }
    >({
      query: ({ messageId, scope, signature }) => ({
        url: path(messageId),
        method: 'DELETE',
        params: { for: scope },
        ...(signature && { body: { signature } }),
      }),
    }),
    /** `sealed` null takes the reaction back. */
    setReaction: build.mutation<
      MessageRef,
      { messageId: string; sealed: GroupPayload | null; signature?: MessageSignature | null }
    >({
      query: ({ messageId, sealed, signature }) =>
        sealed
          ? {
              url: `${path(messageId)}/reaction`,
              method: 'PUT',
              body: {
                encryptedReaction: sealed.encryptedMessage,
                iv: sealed.iv,
                encryptedKeys: sealed.encryptedKeys,
                ...(signature && { signature }),
              },
            }
          : { url: `${path(messageId)}/reaction`, method: 'DELETE' },
    }),
  }),
});

export const { useEditMessageMutation, useDeleteMessageMutation, useSetReactionMutation } = messageActionsApi;
