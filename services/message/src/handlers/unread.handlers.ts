import type { ChatUnread, messageRpc } from '@veil/contracts';
import type { RpcImplementation } from '@veil/kernel';
import { unreadCount } from '../domain/unread.ts';
import { toMessageView, type MessageReadModels } from '../projections/timeline.projection.ts';
import type { UnreadReadModels } from '../projections/unread.projection.ts';
import type { OwnWrites } from './own-writes.ts';

type Deps = { models: MessageReadModels & UnreadReadModels; written: OwnWrites };

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
    const chats = docs.map((doc): ChatUnread => {
      const message = doc.lastMessageId ? last.get(doc.lastMessageId) : undefined;
      const ownKey = message?.encryptedKeys[userId];
      return {
        chatId: doc.chatId,
        unread: unreadCount(doc),
        // Only the caller's wrapped key: the others' are of no use to the caller.
        lastMessage: message
          ? { ...toMessageView(message, null), encryptedKeys: ownKey ? { [userId]: ownKey } : {} }
          : null,
      };
    });
    return { chats };
  },
});
