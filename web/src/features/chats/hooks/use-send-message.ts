import type { ChatView } from '@veil/contracts';
import type { DisplayMessage } from '../../../lib/crypto.ts';
import { useQueueMessage } from '../outbox/use-outbox.ts';

/**
 * Sending in the open chat: the message goes to the outbox, which sends it at once when there is
 * a connection and keeps it (in IndexedDB) until the server has stored it otherwise.
 */
export const useSendMessage = (chat: ChatView | undefined) => {
  const queue = useQueueMessage();

  /** Resolves true once queued; empty text or no recipient does nothing (spec section 5). */
  const send = async (text: string, replyTo: DisplayMessage | null): Promise<boolean> => {
    const recipientId = chat && !chat.isGroupChat ? chat.participants[0]?._id : undefined;
    if (!chat || !text.trim() || (!chat.isGroupChat && !recipientId)) return false;
    queue(chat._id, text, replyTo);
    return true;
  };

  return { send };
};
