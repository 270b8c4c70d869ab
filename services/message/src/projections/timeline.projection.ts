import {
  blockListAfter,
  deletedMessage,
  editedMessage,
  messageViewOf,
  quotedViewOf,
  reactedMessage,
  rewrappedMessage,
  seenMessage,
  sentMessage,
  unreactedMessage,
  type MessageEvent,
  type MessageState,
  type MessageView,
} from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';
import {
  applyAttachmentEvent,
  attachmentIndexes,
  discardAttachments,
  markSentAttachments,
  type AttachmentDoc,
} from './attachments.projection.ts';
import { eraseMessageContent, type ContentLog } from '../log-erasure.ts';

/**
 * The message service's read models: every chat's timeline, and chat membership learnt from
 * the chat context's events (the message service never reads the chat service's data), and the
 * encrypted files sent with messages.
 */
export interface MessageDoc extends MessageState {
  /** Members who deleted it for themselves: their history leaves it out. */
  hiddenFor?: string[];
  /** Blob ids of the files sent with it. */
  attachments?: string[];
}

export interface MembershipDoc {
  _id: string;
  isGroupChat: boolean;
  members: string[];
  /** When members added to a group joined: they read its history from then on. */
  joinedAt?: Record<string, string>;
  /** Members an admin removed, and when: they still read the history up to then. */
  removedAt?: Record<string, string>;
  /**
   * Members removed and added again: the times they were out ([from, to)), whose messages were
   * never theirs to read.
   */
  absences?: Record<string, [string, string][]>;
  /** The disappearing-message timer in seconds; absent: off. */
  disappearingSeconds?: number;
}

/** Members who turned read receipts off (a user with no document sends them). */
export interface ReceiptsDoc {
  _id: string;
  readReceipts: boolean;
}

/** The users one account blocked (a user with no document blocked no one). */
export interface BlocksDoc {
  _id: string;
  blocked: string[];
}

export type MessageReadModels = {
  messages: Collection<MessageDoc>;
  memberships: Collection<MembershipDoc>;
  receipts: Collection<ReceiptsDoc>;
  blocks: Collection<BlocksDoc>;
  attachments: Collection<AttachmentDoc>;
};

export const openMessageReadModels = async (readStore: ReadStore): Promise<MessageReadModels> => ({
  messages: await readStore.collection<MessageDoc>('message_timeline', [
    { fields: { chat: 1, seq: 1 } },
    { fields: { sender: 1, clientMessageId: 1 } },
    { fields: { expiresAt: 1 } },
  ]),
  // By member: a user's chats, for their unread counts.
  memberships: await readStore.collection<MembershipDoc>('message_memberships', [{ fields: { members: 1 } }]),
  receipts: await readStore.collection<ReceiptsDoc>('message_receipt_settings'),
  blocks: await readStore.collection<BlocksDoc>('message_blocks'),
  attachments: await readStore.collection<AttachmentDoc>('message_attachments', attachmentIndexes),
});

type MessageSent = Extract<MessageEvent, { type: 'MessageSent' }>;

/** The timeline document a MessageSent event makes (`seenBy` is carried over on a replay). */
export const messageDocOf = (
  event: MessageSent,
  position: number,
  seenBy: Record<string, true> = {},
): MessageDoc => {
  const { attachments } = event.data;
  return { ...sentMessage(event, position, seenBy), ...(attachments?.length && { attachments }) };
};

/** The tombstone (see `deletedMessage`), still left out of the histories of those who hid it. */
const tombstoneOf = (
  event: Extract<MessageEvent, { type: 'MessageDeleted' }>,
  existing: MessageDoc | null,
): MessageDoc => ({
  ...deletedMessage(event, existing),
  ...(existing?.hiddenFor && { hiddenFor: existing.hiddenFor }),
});

/**
 * `log` is the message log itself: applying a deletion erases the message's content from it
 * (docs/event-backbone.md, "Erasing events"), here, where it is retried until it succeeds and
 * checkpointed, so a crash between recording the deletion and erasing cannot leave content
 * behind. Content that reaches a message after its deletion or expiry (an edit or a reaction
 * racing it) is erased as it arrives. Expiry works the same way (MessageExpired), and both mark
 * the message's files for removal from the blob store (`discardAttachments`).
 */
export const timelineProjection = (
  models: MessageReadModels,
  log: ContentLog,
): ProjectionDefinition<MessageReadModels, 'message' | 'chat' | 'user' | 'attachment'> => ({
  name: 'message_timeline',
  contexts: ['message', 'chat', 'user', 'attachment'],
  models,
  async handle({ event, position }, { messages, memberships, receipts, blocks, attachments }) {
    switch (event.type) {
      case 'MessageSent': {
        const existing = await messages.get(event.data.messageId);
        if (existing?.deleted) return log.erase('message', [position]);
        await messages.put(messageDocOf(event, position, existing?.seenBy ?? {}));
        await markSentAttachments(event, attachments);
        return;
      }
      case 'MessageEdited': {
        const message = await messages.get(event.data.messageId);
        // Its MessageSent comes first in its stream: no message here means it expired.
        if (!message || message.deleted) return log.erase('message', [position]);
        await messages.put(editedMessage(message, event));
        return;
      }
      case 'MessageDeleted': {
        const existing = await messages.get(event.data.messageId);
        await messages.put(tombstoneOf(event, existing));
        await discardAttachments(event.data.attachments ?? existing?.attachments, attachments);
        await eraseMessageContent(log, event.data.messageId);
        return;
      }
      case 'MessageExpired': {
        // Gone from the timeline altogether: no tombstone, as in a chat with a timer elsewhere.
        const existing = await messages.get(event.data.messageId);
        if (existing) await messages.delete(event.data.messageId);
        await discardAttachments(event.data.attachments ?? existing?.attachments, attachments);
        await eraseMessageContent(log, event.data.messageId);
        return;
      }
      case 'MessageHidden': {
        const message = await messages.get(event.data.messageId);
        const hiddenFor = message?.hiddenFor ?? [];
        if (message && !hiddenFor.includes(event.data.userId)) {
          await messages.put({ ...message, hiddenFor: [...hiddenFor, event.data.userId] });
        }
        return;
      }
      case 'ReactionSet': {
        const message = await messages.get(event.data.messageId);
        if (!message || message.deleted) return log.erase('message', [position]);
        await messages.put(reactedMessage(message, event));
        return;
      }
      case 'MessageKeyRewrapped': {
        const message = await messages.get(event.data.messageId);
        if (!message || message.deleted) return log.erase('message', [position]);
        await messages.put(rewrappedMessage(message, event));
        return;
      }
      case 'ReactionRemoved': {
        const message = await messages.get(event.data.messageId);
        if (message?.reactions?.[event.data.userId]) await messages.put(unreactedMessage(message, event));
        return;
      }
      case 'MessageSeen': {
        const message = await messages.get(event.data.messageId);
        if (message && !message.seenBy[event.data.userId]) await messages.put(seenMessage(message, event));
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
          // Someone an admin removed comes back to the history they had, without the time away.
          const { removedAt: { ...removedAt } = {}, absences: { ...absences } = {} } = membership;
          const joined: Record<string, string> = {};
          for (const id of event.data.members) {
            const since = removedAt[id];
            if (since) {
              absences[id] = [...(absences[id] ?? []), [since, event.occurredAt]];
              delete removedAt[id];
            } else if (!membership.members.includes(id)) joined[id] = event.occurredAt;
          }
          await memberships.put({
            ...membership,
            members: [...new Set([...membership.members, ...event.data.members])],
            joinedAt: { ...membership.joinedAt, ...joined },
            removedAt,
            absences,
          });
        }
        return;
      }
      case 'DisappearingTimerSet': {
        const membership = await memberships.get(event.data.chatId);
        if (membership) await memberships.put({ ...membership, disappearingSeconds: event.data.seconds });
        return;
      }
      case 'ChatMemberRemoved':
      case 'ChatMemberLeft': {
        const membership = await memberships.get(event.data.chatId);
        if (membership?.members.includes(event.data.memberId)) {
          const members = membership.members.filter((id) => id !== event.data.memberId);
          // Removed by an admin, they still read what was sealed for them; who leaves, leaves.
          const removedAt =
            event.type === 'ChatMemberRemoved'
              ? { ...membership.removedAt, [event.data.memberId]: event.occurredAt }
              : membership.removedAt;
          await memberships.put({ ...membership, members, ...(removedAt && { removedAt }) });
        }
        return;
      }
      case 'PrivacyChanged':
        await receipts.put({ _id: event.data.userId, readReceipts: event.data.privacy.readReceipts });
        return;
      case 'UserBlocked':
      case 'UserUnblocked': {
        const { userId } = event.data;
        await blocks.put({
          _id: userId,
          blocked: blockListAfter((await blocks.get(userId))?.blocked ?? [], event),
        });
        return;
      }
      case 'ChatAdminPromoted':
      case 'GroupRenamed':
      case 'GroupPictureChanged':
      case 'GroupStateSigned':
      case 'DirectPairClaimed':
      case 'ChatArchiveSet':
      case 'ChatPinSet':
      case 'UsernameClaimed':
      case 'UsernameReleased':
      case 'UserRegistered':
      case 'UserRenamed':
      case 'ProfilePictureChanged':
      case 'UserRegistrationCancelled':
      case 'KeyBackupStored':
      case 'KeysPublished':
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

/** The messages `docs` reply to, by id (one read for all of them). */
export const repliedTo = async (
  messages: Collection<MessageDoc>,
  docs: readonly MessageDoc[],
): Promise<Map<string, MessageDoc>> => {
  const ids = [...new Set(docs.flatMap((doc) => (doc.replyTo ? [doc.replyTo] : [])))];
  return new Map((await messages.getMany(ids)).map((doc) => [doc._id, doc]));
};

/** A message's view; the message it replies to is quoted as `quotedViewOf` shows it. */
export const toMessageView = (doc: MessageDoc, replyTo: MessageDoc | null): MessageView =>
  messageViewOf(doc, replyTo && quotedViewOf(replyTo));
