import {
  chatStreamId,
  messageStreamId,
  userStreamId,
  type ChatEvent,
  type MessageEvent,
  type UserEvent,
} from '@veil/contracts';
import { ulid } from 'ulid';

/** Real domain events for tests, valid against the contract schemas. */
const meta = (streamId: string) => ({
  eventId: ulid(),
  streamId,
  occurredAt: new Date().toISOString(),
  schemaVersion: 1,
});

export const directChatCreated = (chatId: string, a: string, b: string): ChatEvent => ({
  ...meta(chatStreamId(chatId)),
  type: 'DirectChatCreated',
  data: { chatId, members: [a, b], createdBy: a },
});

export const groupChatCreated = (chatId: string, members: string[], name = 'group'): ChatEvent => ({
  ...meta(chatStreamId(chatId)),
  type: 'GroupChatCreated',
  data: { chatId, name, members, createdBy: members[0]! },
});

export const chatMembersAdded = (chatId: string, members: string[], addedBy: string): ChatEvent => ({
  ...meta(chatStreamId(chatId)),
  type: 'ChatMembersAdded',
  data: { chatId, members, addedBy },
});

export const messageSent = (input: {
  chatId: string;
  senderId: string;
  members: string[];
  messageId?: string;
  replyTo?: string | null;
}): Extract<MessageEvent, { type: 'MessageSent' }> => {
  const messageId = input.messageId ?? ulid();
  return {
    ...meta(messageStreamId(messageId)),
    type: 'MessageSent',
    data: {
      messageId,
      chatId: input.chatId,
      senderId: input.senderId,
      content: Buffer.from(`ciphertext ${messageId}`).toString('base64'),
      iv: 'AAAAAAAAAAAAAAAA',
      encryptedKeys: Object.fromEntries(
        input.members.map((m) => [m, Buffer.from(`key ${m}`).toString('base64')]),
      ),
      replyTo: input.replyTo ?? null,
    },
  };
};

export const messageSeen = (messageId: string, chatId: string, userId: string): MessageEvent => ({
  ...meta(messageStreamId(messageId)),
  type: 'MessageSeen',
  data: { messageId, chatId, userId },
});

/** The user service's record of a changed privacy switch (the other two switches left on). */
export const privacyChanged = (userId: string, onlineVisibleTo: 'contacts' | 'nobody'): UserEvent => ({
  ...meta(userStreamId(userId)),
  type: 'PrivacyChanged',
  data: { userId, privacy: { readReceipts: true, typing: true, onlineVisibleTo } },
});

type Sent = Extract<MessageEvent, { type: 'MessageSent' }>;

/** The sender's edit: new ciphertext, keyed for the same members. */
export const messageEdited = (
  sent: Sent,
  text: string,
): Extract<MessageEvent, { type: 'MessageEdited' }> => ({
  ...meta(sent.streamId),
  type: 'MessageEdited',
  data: {
    messageId: sent.data.messageId,
    chatId: sent.data.chatId,
    senderId: sent.data.senderId,
    content: Buffer.from(text).toString('base64'),
    iv: 'BBBBBBBBBBBBBBBB',
    encryptedKeys: sent.data.encryptedKeys,
  },
});

/** Deleted for everyone by its sender; `position` is where its MessageSent is in the log. */
export const messageDeleted = (sent: Sent, position: number): MessageEvent => ({
  ...meta(sent.streamId),
  type: 'MessageDeleted',
  data: {
    messageId: sent.data.messageId,
    chatId: sent.data.chatId,
    senderId: sent.data.senderId,
    deletedBy: sent.data.senderId,
    sentAt: sent.occurredAt,
    seq: position,
  },
});

export const messageExpired = (sent: Sent): MessageEvent => ({
  ...meta(sent.streamId),
  type: 'MessageExpired',
  data: { messageId: sent.data.messageId, chatId: sent.data.chatId },
});
