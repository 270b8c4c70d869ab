import {
  DomainError,
  limits,
  messageStreamId,
  messageViewFromEvent,
  type MessageView,
  type messageRpc,
} from '@veil/contracts';
import { newEvent, type RpcImplementation, type RunningProjection } from '@veil/kernel';
import type { MessageTimeline, Ports } from '@veil/ports';
import { visibleSeenBy } from '../domain/receipts-visibility.ts';
import { decideRewrap } from '../domain/rewrap.decider.ts';
import { decideSeen } from '../domain/seen.decider.ts';
import { decideSend } from '../domain/send.decider.ts';
import {
  repliedTo,
  toMessageView,
  type MessageDoc,
  type MessageReadModels,
} from '../projections/timeline.projection.ts';
import type { AttachmentSettings } from '../settings.ts';
import { attachmentHandlers } from './attachment.handlers.ts';
import { blockedBetween } from './blocked-between.ts';
import { changeHandlers } from './change.handlers.ts';
import type { OwnWrites } from './own-writes.ts';

type Deps = Pick<Ports, 'clock' | 'ids' | 'blobs'> & {
  store: Ports['bus'];
  models: MessageReadModels;
  /** The timeline: every chat's messages. */
  messages: MessageTimeline;
  projection: RunningProjection;
  /** Read-your-writes over every read model of the service. */
  written: OwnWrites;
  attachmentSettings: AttachmentSettings;
};

export const messageRpcHandlers = (
  deps: Deps,
): Omit<
  RpcImplementation<typeof messageRpc.operations>,
  | 'unread'
  | 'pushKey'
  | 'pushSubscribe'
  | 'pushUnsubscribe'
  | 'pushCall'
  | 'report'
  | 'reports'
  | 'closeReport'
> => {
  const { store, models, messages, projection, written } = deps;

  /** Membership comes from chat events; a chat created a moment ago may still be on its way. */
  const membershipOf = async (chatId: string, afterChatPosition?: number) => {
    if (afterChatPosition) await projection.waitFor('chat', afterChatPosition);
    return projection.readFresh('chat', () => models.memberships.get(chatId), Boolean);
  };
  const membersOf = async (chatId: string, afterChatPosition?: number) =>
    (await membershipOf(chatId, afterChatPosition))?.members ?? null;

  /** Uploads completed a moment ago, perhaps through another replica, are caught up with once. */
  const attachmentsNamed = async (ids: string[]) => {
    const docs = await projection.readFresh(
      'attachment',
      () => models.attachments.getMany(ids),
      (found) => found.length === new Set(ids).size,
    );
    return new Map(docs.map((doc) => [doc._id, doc]));
  };

  /**
   * The chat's membership, for a member or someone an admin removed (who reads the history up to
   * their removal, nothing later); anyone else is told it does not exist.
   */
  const requireReader = async (chatId: string, userId: string) => {
    const membership = await membershipOf(chatId);
    // Not yours answers as "not found": chat ids cannot be probed for existence.
    if (!membership?.members.includes(userId) && !membership?.removedAt?.[userId])
      throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
    return membership;
  };

  const withReplies = async (docs: MessageDoc[]) => {
    const replies = await repliedTo(messages, docs);
    return docs.map((doc) => toMessageView(doc, doc.replyTo ? (replies.get(doc.replyTo) ?? null) : null));
  };

  /** Each message's `seenBy` as `viewerId` may see it (their read-receipt switch and the readers'). */
  const withVisibleReceipts = async (views: MessageView[], viewerId: string) => {
    const readers = [...new Set([viewerId, ...views.flatMap((view) => Object.keys(view.seenBy))])];
    const silent = new Set(
      (await models.receipts.getMany(readers)).filter((doc) => !doc.readReceipts).map((doc) => doc._id),
    );
    if (!silent.size) return views;
    const sends = (id: string) => !silent.has(id);
    return views.map((view) => ({ ...view, seenBy: visibleSeenBy(view.seenBy, viewerId, sends) }));
  };

  /**
   * The message this sender already stored under this key, if any. The log refuses a repeated
   * event id only for a while (JetStream's duplicate window); the timeline remembers the key for
   * good, so a retry after any delay is answered with the first message.
   */
  const storedByKey = async (chatId: string, userId: string, clientMessageId: string) => {
    const doc = await messages.bySenderKey(userId, clientMessageId);
    if (!doc) return null;
    if (doc.chat !== chatId) {
      throw new DomainError('VALIDATION_FAILED', 'clientMessageId was already used for another message');
    }
    const [message] = await withReplies([doc]);
    return message!;
  };

  return {
    ...changeHandlers({ ...deps, written, membersOf: (chatId) => membersOf(chatId), viewsOf: withReplies }),

    async userApplied({ position }) {
      await projection.waitFor('user', position);
      return {};
    },

    async send(command) {
      const { userId, chatId, replyTo, afterChatPosition, clientMessageId } = command;
      const membership = await membershipOf(chatId, afterChatPosition);
      const original = replyTo
        ? await projection.readFresh('message', () => messages.get(replyTo), Boolean)
        : null;
      const attachments = command.attachments?.length
        ? await attachmentsNamed(command.attachments)
        : undefined;
      const data = decideSend(command, {
        members: membership?.members ?? null,
        ...(membership &&
          !membership.isGroupChat && { blocked: await blockedBetween(models.blocks, membership.members) }),
        ...(membership?.disappearingSeconds && { disappearingSeconds: membership.disappearingSeconds }),
        now: deps.clock.now(),
        ...(replyTo && { replyToChat: original?.chat ?? null }),
        ...(attachments && { attachments }),
        messageId: deps.ids.next(),
      });
      // A log that refuses a repeated event id for good catches a retry by the append below,
      // which saves a read-model query on every send (7 % of the embedded process at 2,000 sends/s).
      if (clientMessageId && !store.deduplicatesForever) {
        const stored = await storedByKey(chatId, userId, clientMessageId);
        if (stored) return { message: stored };
      }
      const event = newEvent(
        deps,
        'MessageSent',
        messageStreamId(data.messageId),
        data,
        // Scoped to the sender: one user's key can never match another user's message. A repeat
        // still on its way to the timeline is caught here, by the log's duplicate check.
        clientMessageId && `send-${userId}-${clientMessageId}`,
      );
      const { position, duplicate } = await store.append('message', event, { expectedVersion: 0 });
      written.wrote(userId, position);
      if (duplicate) {
        await projection.waitFor('message', position);
        const stored = await storedByKey(chatId, userId, clientMessageId!);
        if (!stored)
          throw new DomainError('VALIDATION_FAILED', 'clientMessageId was already used for another message');
        return { message: stored };
      }
      return { message: messageViewFromEvent(event, position, original && toMessageView(original, null)) };
    },

    async history({ userId, chatId, before, after, limit }) {
      const membership = await requireReader(chatId, userId);
      // Everything in the log now, the caller's own writes and what sockets were just told of.
      await projection.upToDate(['message']);
      const pageSize = Math.min(limit ?? limits.historyPageDefault, limits.historyPageMax);
      // Someone added to a group reads it from the moment they joined: earlier messages were
      // never keyed for them (docs/decisions.md, "Group membership and history").
      const joinedAt = membership.joinedAt?.[userId];
      const removedAt = membership.members.includes(userId) ? undefined : membership.removedAt?.[userId];
      const absences = membership.absences?.[userId] ?? [];
      const wasAway = (doc: MessageDoc) =>
        absences.some(([from, to]) => doc.createdAt >= from && doc.createdAt < to);
      // Catch-up after a reconnect reads forwards from `after`; paging reads backwards from the newest.
      const forwards = after !== undefined && before === undefined;
      const page = await messages.page({
        chatId,
        ...(before !== undefined && { before }),
        ...(after !== undefined && { after }),
        ...(joinedAt && { sentFrom: joinedAt }),
        ...(removedAt && { sentBefore: removedAt }),
        order: forwards ? 'oldest' : 'newest',
        limit: pageSize + 1,
      });
      const hasMore = page.length > pageSize;
      // Messages the user deleted for themselves are left out; the page may then be shorter.
      // So are those sent while the user was out of the group; the page may then be shorter.
      const docs = page.slice(0, pageSize).filter((doc) => !doc.hiddenFor?.includes(userId) && !wasAway(doc));
      if (!forwards) docs.reverse();
      return { messages: await withVisibleReceipts(await withReplies(docs), userId), hasMore };
    },

    async markSeen({ userId, reports }) {
      const ids = [...new Set(reports.map((report) => report.messageId))];
      // A message delivered over a socket can be reported seen before this service's own read
      // model has applied it (both follow the same log): catch up once before judging.
      const found = await projection.readFresh(
        'message',
        () => messages.getMany(ids),
        (docs) => docs.length === ids.length,
      );
      const chats = [...new Set(found.map((doc) => doc.chat))];
      const receipts = decideSeen(userId, reports, {
        messages: new Map(found.map((doc) => [doc._id, doc])),
        members: new Map((await models.memberships.getMany(chats)).map((m) => [m._id, m.members])),
      });
      // Appended together, so the embedded log writes them in one group commit and JetStream
      // gets them pipelined, instead of one durable write after another.
      const positions = await Promise.all(
        receipts.map((receipt) =>
          store.append('message', newEvent(deps, 'MessageSeen', messageStreamId(receipt.messageId), receipt)),
        ),
      );
      for (const { position } of positions) written.wrote(userId, position);
      return { marked: receipts.map(({ chatId, messageId }) => ({ chatId, messageId })) };
    },

    async rewrap({ userId, copies }) {
      await written.applied(userId);
      const ids = copies.map((copy) => copy.messageId);
      const docs = await projection.readFresh(
        'message',
        () => messages.getMany(ids),
        (found) => found.length === new Set(ids).size,
      );
      const chats = [...new Set(docs.map((doc) => doc.chat))];
      const decided = decideRewrap(userId, copies, {
        messages: new Map(
          docs.map((doc) => [
            doc._id,
            {
              chat: doc.chat,
              deleted: doc.deleted ?? false,
              sealedFor: Object.keys(doc.encryptedKeys),
              rewrapped: doc.rewrappedKeys?.[userId],
            },
          ]),
        ),
        members: new Map((await models.memberships.getMany(chats)).map((m) => [m._id, m.members])),
      });
      // Appended together: one group commit in the embedded log, pipelined on JetStream.
      const positions = await Promise.all(
        decided.map((copy) =>
          store.append(
            'message',
            newEvent(deps, 'MessageKeyRewrapped', messageStreamId(copy.messageId), copy),
          ),
        ),
      );
      for (const { position } of positions) written.wrote(userId, position);
      return { rewrapped: decided.length };
    },

    ...attachmentHandlers({
      ...deps,
      settings: deps.attachmentSettings,
      membersOf: (chatId) => membersOf(chatId),
      // Someone an admin removed still reads the files of the messages they kept.
      mayReadFilesOf: async (chatId, userId, messageId) => {
        const membership = await membershipOf(chatId);
        if (membership?.members.includes(userId)) return true;
        const removedAt = membership?.removedAt?.[userId];
        const message = removedAt && messageId ? await messages.get(messageId) : null;
        return Boolean(
          message && removedAt && message.createdAt < removedAt && message.encryptedKeys[userId],
        );
      },
    }),

    async getMessage({ messageId }) {
      const doc = await projection.readFresh('message', () => messages.get(messageId), Boolean);
      if (!doc) throw new DomainError('MESSAGE_NOT_FOUND', 'Message not found');
      const [message] = await withReplies([doc]);
      return { message: message! };
    },
  };
};
