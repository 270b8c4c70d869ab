import type { ChatView, MessageView } from '@veil/contracts';
import type { IndividualPayload } from '@veil/crypto';
import { api } from '../../lib/api.ts';
import type { ApiRequest, BaseQueryCall } from '../../lib/base-query.ts';

export interface SentIndividualMessage {
  message: MessageView;
  chat: Pick<ChatView, '_id'> & Partial<ChatView>;
}

/**
 * A message send over HTTP, tried once more if no answer came back (the request may have been
 * stored all the same): the body's `clientMessageId` makes the repeat safe, since the server
 * answers it with the message it stored first.
 */
export const sendMessageOverHttp = async <T>(
  baseQuery: BaseQueryCall,
  request: ApiRequest,
  signal: AbortSignal,
) => {
  let result = await baseQuery(request);
  if (result.error?.kind === 'network' && !signal.aborted) result = await baseQuery(request);
  return result.error ? { error: result.error } : { data: result.data as T };
};

/**
 * Sending a one-to-one message is shared by two features: the Users page ("Say Hi") and the
 * open chat. Callers update the caches they own once the message is stored.
 */
export const messagingApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendIndividualMessage: build.mutation<
      SentIndividualMessage,
      {
        recipientId: string;
        payload: IndividualPayload & { attachments?: string[] };
        clientMessageId: string;
      }
    >({
      queryFn: ({ recipientId, payload, clientMessageId }, { signal }, _extra, baseQuery) =>
        sendMessageOverHttp<SentIndividualMessage>(
          baseQuery as BaseQueryCall,
          {
            url: `message/sendIndividualMessage/${encodeURIComponent(recipientId)}`,
            method: 'POST',
            body: { ...payload, clientMessageId },
          },
          signal,
        ),
    }),
  }),
});

export const { useSendIndividualMessageMutation } = messagingApi;
