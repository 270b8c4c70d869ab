import {
  blockListAfter,
  messageStreamId,
  messageViewOf,
  quotedViewOf,
  type MessageEvent,
  type MessageView,
} from '@veil/contracts';
import type { ProjectionDefinition, ReadModels, Staged, StagedCollection } from '@veil/kernel';
import {
  foldTimelineMessage,
  type Collection,
  type MessageTimeline,
  type ReadStore,
  type TimelineMessage,
} from '@veil/ports';
import {
  applyAttachmentEvent,
  attachmentIndexes,
  discardAttachments,
  markSentAttachments,
  type AttachmentDoc,
} from './attachments.projection.ts';
import { eraseMessageContent, type ContentLog } from '../log-erasure.ts';

/**
 * The message service's read models: chat membership learnt from the chat context's events (the
 * message service never reads the chat service's data), receipts settings, block lists and the
 * encrypted files sent with messages; and, where the read models follow the log, every chat's
 * timeline (`message_timeline`, timeline-store.ts). In embedded mode the log answers the
 * timeline itself (`Ports.messageTimeline`) and the projection keeps no document of it.
 */
export type MessageDoc = TimelineMessage;

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
  memberships: Collection<MembershipDoc>;
  receipts: Collection<ReceiptsDoc>;
  blocks: Collection<BlocksDoc>;
  attachments: Collection<AttachmentDoc>;
};

export const openMessageReadModels = async (readStore: ReadStore): Promise<MessageReadModels> => ({
  // By member: a user's chats, for their unread counts.
  memberships: await readStore.collection<MembershipDoc>('message_memberships', [{ fields: { members: 1 } }]),
  receipts: await readStore.collection<ReceiptsDoc>('message_receipt_settings'),
  blocks: await readStore.collection<BlocksDoc>('message_blocks'),
  attachments: await readStore.collection<AttachmentDoc>('message_attachments', attachmentIndexes),
});

type Models = Staged<MessageReadModels> & { messages?: StagedCollection<MessageDoc> };
type Recorded<T extends MessageEvent['type']> = {
  event: Extract<MessageEvent, { type: T }>;
  position: number;
};

/** The events after which a message's earlier state decides what is erased or discarded. */
const judgedOnWhatCameBefore: ReadonlySet<string> = new Set([
  'MessageEdited',
  'ReactionSet',
  'MessageKeyRewrapped',
  'MessageDeleted',
  'MessageExpired',
]);

/**
 * A message's state before an event at `position`: its stream folded up to there, appends of
 * the commit being made included (the log's `readStream` has them).
 */
const foldedBefore = async (log: ContentLog, messageId: string, position: number) => {
  const { events } = await log.readStream('message', messageStreamId(messageId));
  let message: MessageDoc | null = null;
  for (const recorded of events)
    if (recorded.position < position)
      message = foldTimelineMessage(message, recorded.event as MessageEvent, recorded.position);
  return message;
};

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
  /** The timeline's documents to keep, or null where the log answers the timeline itself. */
  documents: Collection<MessageDoc> | null,
): ProjectionDefinition<ReadModels, 'message' | 'chat' | 'user' | 'attachment'> => {
  /**
   * One event of a message's stream: its document folded one step further (where documents are
   * kept), and what the event erases from the log or discards of the message's files, judged on
   * the message as it was before it (its document, or its stream folded up to the event).
   */
  const applyMessageEvent = async ({ event, position }: Recorded<MessageEvent['type']>, staged: Models) => {
    const id = event.data.messageId;
    const table = staged.messages;
    const before = table
      ? await table.get(id)
      : judgedOnWhatCameBefore.has(event.type)
        ? await foldedBefore(log, id, position)
        : null;
    if (table) {
      const after = foldTimelineMessage(before, event, position);
      if (after && after !== before) await table.put(after);
      else if (!after && before) await table.delete(id);
    }
    switch (event.type) {
      case 'MessageSent':
        // Met again after its deletion (a replay): the content stays erased.
        if (before?.deleted) return log.erase('message', [position]);
        return markSentAttachments(event, staged.attachments);
      case 'MessageEdited':
      case 'ReactionSet':
      case 'MessageKeyRewrapped':
        // Content racing a deletion or an expiry is erased as it arrives.
        if (!before || before.deleted) return log.erase('message', [position]);
        return;
      case 'MessageDeleted':
        await discardAttachments(event.data.attachments ?? before?.attachments, staged.attachments);
        return eraseMessageContent(log, id);
      case 'MessageExpired':
        await discardAttachments(event.data.attachments ?? before?.attachments, staged.attachments);
        return eraseMessageContent(log, id, { expired: true });
      default:
        return;
    }
  };

  return {
    name: 'message_timeline',
    contexts: ['message', 'chat', 'user', 'attachment'],
    models: documents ? { ...models, messages: documents } : models,
    async handle({ event, position }, staged) {
      const { memberships, receipts, blocks, attachments } = staged as unknown as Models;
      switch (event.type) {
        case 'MessageSent':
        case 'MessageEdited':
        case 'MessageDeleted':
        case 'MessageExpired':
        case 'MessageHidden':
        case 'ReactionSet':
        case 'MessageKeyRewrapped':
        case 'ReactionRemoved':
        case 'MessageSeen':
          return applyMessageEvent({ event, position }, staged as unknown as Models);
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
  };
};

/** The messages `docs` reply to, by id (one read for all of them). */
export const repliedTo = async (
  messages: Pick<MessageTimeline, 'getMany'>,
  docs: readonly MessageDoc[],
): Promise<Map<string, MessageDoc>> => {
  const ids = [...new Set(docs.flatMap((doc) => (doc.replyTo ? [doc.replyTo] : [])))];
  return new Map((await messages.getMany(ids)).map((doc) => [doc._id, doc]));
};

/** A message's view; the message it replies to is quoted as `quotedViewOf` shows it. */
export const toMessageView = (doc: MessageDoc, replyTo: MessageDoc | null): MessageView =>
  messageViewOf(doc, replyTo && quotedViewOf(replyTo));
