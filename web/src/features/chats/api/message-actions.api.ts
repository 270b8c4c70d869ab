import type { MessageRef, MessageSignature, MessageView } from '@veil/contracts';
import type { GroupPayload } from '@veil/crypto';
import { api } from '../../../lib/api.ts';
import type { ApiError } from '../../../lib/api-error.ts';
import type { ApiRequest, BaseQueryCall } from '../../../lib/base-query.ts';
import { requestOverSocket } from '../../../lib/socket-request.ts';

const path = (messageId: string) => `message/${encodeURIComponent(messageId)}`;

/**
 * Over the socket while it is connected, otherwise over HTTP: the server runs the same command
 * either way and answers with the same data and error codes (docs/realtime.md, "Changing a
 * message over the socket").
 */
const socketOrHttp = async <T>(
  overSocket: () => Promise<T | undefined>,
  baseQuery: BaseQueryCall,
  overHttp: ApiRequest,
) => {
  try {
    const data = await overSocket();
    if (data !== undefined) return { data };
  } catch (error) {
    return { error: error as ApiError };
  }
  const result = await baseQuery(overHttp);
  return result.error ? { error: result.error } : { data: result.data as T };
};

/** Changes to a stored message: edit, delete, react (docs/api.md, "Changing a message"). */
export const messageActionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    editMessage: build.mutation<
      { message: MessageView },
      { messageId: string; payload: GroupPayload; signature: MessageSignature | null }
    >({
      queryFn: (
        { messageId, payload: { encryptedMessage, iv, encryptedKeys }, signature },
        _api,
        _extra,
        baseQuery,
      ) => {
        const body = { encryptedMessage, iv, encryptedKeys, ...(signature && { signature }) };
        return socketOrHttp(
          () => requestOverSocket('edit message', { messageId, ...body }),
          baseQuery as BaseQueryCall,
          { url: path(messageId), method: 'PUT', body },
        );
      },
    }),
    deleteMessage: build.mutation<
      MessageRef,
      { messageId: string; scope: 'everyone' | 'me'; signature?: MessageSignature | null }
    >({
      queryFn: ({ messageId, scope, signature }, _api, _extra, baseQuery) =>
        socketOrHttp(
          () =>
            requestOverSocket('delete message', { messageId, for: scope, ...(signature && { signature }) }),
          baseQuery as BaseQueryCall,
          {
            url: path(messageId),
            method: 'DELETE',
            params: { for: scope },
            ...(signature && { body: { signature } }),
          },
        ),
    }),
    /** `sealed` null takes the reaction back. */
    setReaction: build.mutation<
      MessageRef,
      { messageId: string; sealed: GroupPayload | null; signature?: MessageSignature | null }
    >({
      queryFn: ({ messageId, sealed, signature }, _api, _extra, baseQuery) => {
        const url = `${path(messageId)}/reaction`;
        if (!sealed)
          return socketOrHttp(
            () => requestOverSocket('remove reaction', { messageId, ...(signature && { signature }) }),
            baseQuery as BaseQueryCall,
            { url, method: 'DELETE', ...(signature && { body: { signature } }) },
          );
        const body = {
          encryptedReaction: sealed.encryptedMessage,
          iv: sealed.iv,
          encryptedKeys: sealed.encryptedKeys,
          ...(signature && { signature }),
        };
        return socketOrHttp(
          () => requestOverSocket('react to message', { messageId, ...body }),
          baseQuery as BaseQueryCall,
          { url, method: 'PUT', body },
        );
      },
    }),
  }),
});

export const { useEditMessageMutation, useDeleteMessageMutation, useSetReactionMutation } = messageActionsApi;
