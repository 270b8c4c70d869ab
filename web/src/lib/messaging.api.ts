import type { ChatView, MessageView } from '@veil/contracts';
import type { IndividualPayload } from '@veil/crypto';
import { api } from './api.ts';

export interface SentIndividualMessage {
  message: MessageView;
  chat: Pick<ChatView, '_id'> & Partial<ChatView>;
}

/**
 * Sending a one-to-one message is shared by two features: the Users page ("Say Hi") and the
 * open chat. Callers update the caches they own once the message is stored.
 */
export const messagingApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendIndividualMessage: build.mutation<
      SentIndividualMessage,
      { recipientId: string; payload: IndividualPayload }
    >({
      query: ({ recipientId, payload }) => ({
        url: `message/sendIndividualMessage/${encodeURIComponent(recipientId)}`,
        method: 'POST',
        body: payload,
      }),
    }),
  }),
});

export const { useSendIndividualMessageMutation } = messagingApi;
