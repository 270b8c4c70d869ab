import type { ChatUnread, MessageView, messageRpc } from '@veil/contracts';
import { keyMapSummaryOf } from '@veil/crypto';
import type { RpcImplementation, RunningProjection } from '@veil/kernel';
import type { MessageTimeline } from '@veil/ports';
import {
  continueUnreadScan,
  scanNeedsMore,
  startUnreadScan,
  type Reader,
  type UnreadScan,
} from '../domain/unread.ts';
import { readPointId, type ReadPointModels } from '../projections/read-points.projection.ts';
import {
  repliedTo,
  toMessageView,
  type MessageDoc,
  type MessageReadModels,
} from '../projections/timeline.projection.ts';
import type { OwnWrites } from './own-writes.ts';

type Deps = {
  models: MessageReadModels & ReadPointModels;
  messages: MessageTimeline;
  written: OwnWrites;
  /** The timeline, which unread counts are counted from. */
  timeline: Pick<RunningProjection, 'upToDate'>;
};

/**
 * How many messages each step of a chat's scan reads, newest first: most chats are settled by
 * their newest message or two, a long backlog by the later steps. Past the last one the count
 * stands as it is.
 */
const scanPages = [4, 64, 256];

/** A message as one reader is served it: only the reader's own wrapped key (and copy). */
const forReader = (view: MessageView, userId: string): MessageView => {
  const { rewrappedKeys, ...rest } = view;
  const ownKey = view.encryptedKeys[userId];
  const ownCopy = rewrappedKeys?.[userId];
  return {
    ...rest,
    encryptedKeys: ownKey ? { [userId]: ownKey } : {},
    ...(ownCopy && { rewrappedKeys: { [userId]: ownCopy } }),
  };
};

/**
 * A chat's newest message for the chat list: the reader's key only, with the summary of the
 * whole key map its signature covers, and the message it replies to (the signature names it).
 */
const previewOf = async (message: MessageDoc, replyTo: MessageDoc | null, userId: string) => {
  const view = forReader(toMessageView(message, replyTo), userId);
  return {
    ...view,
    replyTo: view.replyTo && forReader(view.replyTo, userId),
    ...(!message.deleted && { keyMap: await keyMapSummaryOf(message.encryptedKeys) }),
  };
};

/** The caller's unread counts, for the caller's own chats (from the memberships), nobody else's. */
export const unreadHandlers = ({
  models,
  messages,
  written,
  timeline,
}: Deps): Pick<RpcImplementation<typeof messageRpc.operations>, 'unread'> => {
  const scanChat = async (chatId: string, reader: Reader) => {
    let scan: UnreadScan<MessageDoc> = startUnreadScan();
    let before: number | undefined;
    for (const limit of scanPages) {
      const page = await messages.page({
        chatId,
        ...(before !== undefined && { before }),
        order: 'newest',
        limit,
      });
      scan = continueUnreadScan(scan, page, reader);
      if (!scanNeedsMore(scan) || page.length < limit) break;
      before = page.at(-1)!.seq;
    }
    return scan;
  };

  return {
    async unread({ userId }) {
      // A read straight after the caller's own send or seen report includes it, and so does one
      // straight after a message a socket delivered.
      await Promise.all([written.applied(userId), timeline.upToDate(['message'])]);
      const memberships = await models.memberships.find({ members: userId });
      const points = await models.readPoints.getMany(
        memberships.map((chat) => readPointId(userId, chat._id)),
      );
      const seenUpTo = new Map(points.map((point) => [point._id, point.seenUpTo]));
      const scans = await Promise.all(
        memberships.map(async (chat) => {
          const joinedAt = chat.joinedAt?.[userId];
          const reader: Reader = {
            userId,
            seenUpTo: seenUpTo.get(readPointId(userId, chat._id)) ?? null,
            ...(joinedAt && { joinedAt }),
          };
          return { chatId: chat._id, scan: await scanChat(chat._id, reader) };
        }),
      );
      // Chats with nothing to show yet are left out, as before their first message.
      const shown = scans.filter(({ scan }) => scan.preview);
      const replies = await repliedTo(
        messages,
        shown.map(({ scan }) => scan.preview!),
      );
      const chats = await Promise.all(
        shown.map(async ({ chatId, scan }): Promise<ChatUnread> => {
          const message = scan.preview!;
          const replyTo = message.replyTo ? (replies.get(message.replyTo) ?? null) : null;
          return { chatId, unread: scan.count, lastMessage: await previewOf(message, replyTo, userId) };
        }),
      );
      return { chats };
    },
  };
};
