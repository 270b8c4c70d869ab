import type { MessageSentEvent, PushPayload } from '@veil/contracts';

/**
 * The most a push may carry: a Web Push record is 4096 bytes, of which encryption takes 103
 * (header, tag, padding delimiter); some push services take less, so this keeps a margin.
 */
export const maxPushPayloadBytes = 3800;

/**
 * What `recipientId`'s browsers are pushed for one message: the sender's ciphertext and iv and
 * the message key as wrapped for this recipient, nothing the server could read. When that would
 * not fit, only the ids: the browser then says a message arrived without its text.
 */
export const pushPayloadFor = (
  event: MessageSentEvent,
  recipientId: string,
  senderName: string | null,
): string => {
  const { messageId, chatId, senderId, content, iv, encryptedKeys } = event.data;
  const ids: PushPayload = {
    kind: 'message',
    userId: recipientId,
    chatId,
    messageId,
    sender: { _id: senderId, username: senderName },
    sentAt: event.occurredAt,
  };
  const encryptedKey = encryptedKeys[recipientId];
  if (encryptedKey) {
    const full = JSON.stringify({ ...ids, message: { content, iv, encryptedKey } });
    if (new TextEncoder().encode(full).length <= maxPushPayloadBytes) return full;
  }
  return JSON.stringify(ids);
};
