import type { KeyMapSummary, MessageSentEvent, PushPayload } from '@veil/contracts';

/**
 * The most a push may carry: a Web Push record is 4096 bytes, of which encryption takes 103
 * (header, tag, padding delimiter); some push services take less, so this keeps a margin.
 */
export const maxPushPayloadBytes = 3800;

/** What a recipient's browser checks the sender's signature with, beside the event's own fields. */
export interface PushSignatureContext {
  isGroupChat: boolean;
  /** The summary of the event's key map (SHA-256 of its wrapped keys: computed by the caller). */
  keyMap: KeyMapSummary;
}

/**
 * What `recipientId`'s browsers are pushed for one message: the sender's ciphertext and iv, the
 * message key as wrapped for this recipient, and what the browser checks the sender's signature
 * with (the signature, the client message id, the reply, the kind of chat, the key map's
 * summary), nothing the server could read. When that would not fit, or the chat is not known,
 * only the ids: the browser then says a message arrived without its text.
 */
export const pushPayloadFor = (
  event: MessageSentEvent,
  recipientId: string,
  senderName: string | null,
  context: PushSignatureContext | null,
): string => {
  const { messageId, chatId, senderId, content, iv, encryptedKeys, replyTo, clientMessageId, signature } =
    event.data;
  const ids: PushPayload = {
    kind: 'message',
    userId: recipientId,
    chatId,
    messageId,
    sender: { _id: senderId, username: senderName },
    sentAt: event.occurredAt,
  };
  const encryptedKey = encryptedKeys[recipientId];
  if (encryptedKey && context) {
    const message: PushPayload['message'] = {
      content,
      iv,
      encryptedKey,
      isGroupChat: context.isGroupChat,
      keyMap: context.keyMap,
      replyTo,
      ...(clientMessageId !== undefined && { clientMessageId }),
      ...(signature && { signature }),
    };
    const full = JSON.stringify({ ...ids, message });
    if (new TextEncoder().encode(full).length <= maxPushPayloadBytes) return full;
  }
  return JSON.stringify(ids);
};
