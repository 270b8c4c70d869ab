import type { ChatView } from '@veil/contracts';
import type { AttachmentRef, MessageMention } from '@veil/crypto';
import { type DisplayMessage, useQueueMessage } from '../../messages/index.ts';

/**
 * Sending in the open chat: the message goes to the outbox, which sends it at once when there is
 * a connection and keeps it (in IndexedDB) until the server has stored it otherwise.
 */
export const useSendMessage = (chat: ChatView | undefined) => {
  const queue = useQueueMessage();

  /**
   * Resolves true once queued; empty text without files, or no recipient, does nothing (docs/web.md,
   * "Outbox"). Files travel inside the ciphertext (their keys, names and types) and by blob id
   * beside it, so the server keeps them.
   */
  const send = async (
    text: string,
    replyTo: DisplayMessage | null,
    attachments: AttachmentRef[] = [],
    mentions: MessageMention[] = [],
  ): Promise<boolean> => {
    const recipientId = chat && !chat.isGroupChat ? chat.participants[0]?._id : undefined;
    if (!chat || (!text.trim() && !attachments.length) || (!chat.isGroupChat && !recipientId)) return false;
    // Only a group's members can be named: a one-to-one chat sends none.
    queue(chat._id, text, replyTo, attachments, undefined, chat.isGroupChat ? mentions : []);
    return true;
  };

  return { send };
};
