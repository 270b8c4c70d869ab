import type { AttachmentEvent, ChatEvent, MessageEvent, MessageView } from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';
import {
  applyAttachmentEvent,
  attachmentIndexes,
  markSentAttachments,
  type AttachmentDoc,
} from './attachments.projection.ts';

/**
 * The message service's read models: every chat's timeline, and chat membership learnt from
 * the chat context's events (the message service never reads the chat service's data), and the
 * encrypted files sent with messages.
 */
export interface MessageDoc {
  _id: string;
  chat: string;
  sender: string;
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  replyTo: string | null;
  seenBy: Record<string, true>;
  createdAt: string;
  /** The event's position in the message log: increases along every chat's history. */
  seq: number;
  /** The sender's key for this message, when it sent one: a retry finds the stored message by it. */
  clientMessageId?: string;
}

export interface MembershipDoc {
  _id: string;
  isGroupChat: boolean;
  members: string[];
}

export type MessageReadModels = {
  messages: Collection<MessageDoc>;
  memberships: Collection<MembershipDoc>;
  attachments: Collection<AttachmentDoc>;
};

export const openMessageReadModels = async (readStore: ReadStore): Promise<MessageReadModels> => ({
  messages: await readStore.collection<MessageDoc>('message_timeline', [
    { fields: { chat: 1, seq: 1 } },
    { fields: { sender: 1, clientMessageId: 1 } },
  ]),
  memberships: await readStore.collection<MembershipDoc>('message_memberships'),
  attachments: await readStore.collection<AttachmentDoc>('message_attachments', attachmentIndexes),
});

type MessageSent = Extract<MessageEvent, { type: 'MessageSent' }>;

/** The timeline document a MessageSent event makes (`seenBy` is carried over on a replay). */
export const messageDocOf = (
  event: MessageSent,
  position: number,
  seenBy: Record<string, true> = {},
): MessageDoc => {
  const { messageId, chatId, senderId, content, iv, encryptedKeys, replyTo, clientMessageId } = event.data;
  return {
    _id: messageId,
    chat: chatId,
    sender: senderId,
    content,
    iv,
    encryptedKeys,
    replyTo,
    seenBy,
    createdAt: event.occurredAt,
    seq: position,
    ...(clientMessageId !== undefined && { clientMessageId }),
  };
};

export const timelineProjection = (models: MessageReadModels): ProjectionDefinition<MessageReadModels> => ({
  name: 'message_timeline',
  contexts: ['message', 'chat', 'attachment'],
  models,
  async handle({ event: raw, position }, { messages, memberships, attachments }) {
    const event = raw as MessageEvent | ChatEvent | AttachmentEvent;
    switch (event.type) {
      case 'MessageSent': {
        const existing = await messages.get(event.data.messageId);
        await messages.put(messageDocOf(event, position, existing?.seenBy ?? {}));
        await markSentAttachments(event, attachments);
        return;
      }
      case 'MessageSeen': {
        const message = await messages.get(event.data.messageId);
        if (message && !message.seenBy[event.data.userId]) {
          await messages.put({ ...message, seenBy: { ...message.seenBy, [event.data.userId]: true } });
        }
        return;
      }
      case 'DirectChatCreated':
      case 'GroupChatCreated':
        await memberships.put({
          _id: event.data.chatId,
          isGroupChat: event.type === 'GroupChatCreated',
          members: [...event.data.members],
        });
        return;
      case 'ChatMembersAdded': {
        const membership = await memberships.get(event.data.chatId);
        if (membership) {
          await memberships.put({
            ...membership,
            members: [...new Set([...membership.members, ...event.data.members])],
          });
        }
        return;
      }
      case 'DirectPairClaimed':
        return;
      case 'AttachmentUploadStarted':
      case 'AttachmentUploadCompleted':
      case 'AttachmentRemoved':
        await applyAttachmentEvent(event, attachments);
        return;
      default: {
        // Every event of the contexts followed is named above: a new one must be decided on.
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});

export const toMessageView = (doc: MessageDoc, replyTo: MessageDoc | null): MessageView => ({
  _id: doc._id,
  chat: doc.chat,
  sender: { _id: doc.sender },
  content: doc.content,
  iv: doc.iv,
  encryptedKeys: doc.encryptedKeys,
  replyTo: replyTo ? toMessageView(replyTo, null) : null,
  seenBy: doc.seenBy,
  createdAt: doc.createdAt,
  seq: doc.seq,
});
