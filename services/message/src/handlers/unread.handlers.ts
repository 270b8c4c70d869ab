import type { ChatUnread, MessageView, messageRpc } from '@veil/contracts';
import { keyMapSummaryOf } from '@veil/crypto';
import type { RpcImplementation } from '@veil/kernel';
import { unreadCount } from '../domain/unread.ts';
import {
  repliedTo,
  toMessageView,
  type MessageDoc,
  type MessageReadModels,
} from '../projections/timeline.projection.ts';
import type { UnreadReadModels } from '../projections/unread.projection.ts';
import type { OwnWrites } from './own-writes.ts';

type Deps = { models: MessageReadModels & UnreadReadModels; written: OwnWrites };

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

/** The caller's unread counts: the documents keyed by the caller's own id, nobody else's. */
export const unreadHandlers = ({
  models,
  written,
}: Deps): Pick<RpcImplementation<typeof messageRpc.operations>, 'unread'> => ({
  async unread({ userId }) {
    // A read straight after the caller's own send or seen report includes it.
    await written.applied(userId);
    const docs = await models.unread.find({ userId });
    const lastIds = docs.flatMap((doc) => (doc.lastMessageId ? [doc.lastMessageId] : []));
    const last = new Map((await models.messages.getMany(lastIds)).map((doc) => [doc._id, doc]));
    const replies = await repliedTo(models.messages, [...last.values()]);
    const chats = await Promise.all(
      docs.map(async (doc): Promise<ChatUnread> => {
        const message = doc.lastMessageId ? last.get(doc.lastMessageId) : undefined;
        const replyTo = message?.replyTo ? (replies.get(message.replyTo) ?? null) : null;
        return {
          chatId: doc.chatId,
          unread: unreadCount(doc),
          lastMessage: message ? await previewOf(message, replyTo, userId) : null,
        };
      }),
    );
    return { chats };
  },
});
