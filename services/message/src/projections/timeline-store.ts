import type { Collection, Filter, MessageTimeline, ReadStore, TimelineMessage } from '@veil/ports';

/** The read model that keeps the timeline where the read models follow the log (cluster mode). */
export const timelineCollection = 'message_timeline';

/**
 * The `MessageTimeline` port over the timeline's read model: one document per message, folded by
 * the timeline projection (`foldTimelineMessage`), found through the collection's indexes.
 */
export const tableTimeline = (documents: Collection<TimelineMessage>): MessageTimeline => ({
  get: (messageId) => documents.get(messageId),
  getMany: (messageIds) => documents.getMany(messageIds),
  page({ chatId, before, after, sentFrom, sentBefore, order, limit }) {
    const filter: Filter = { chat: chatId };
    if (before !== undefined || after !== undefined)
      filter.seq = {
        ...(before !== undefined && { $lt: before }),
        ...(after !== undefined && { $gt: after }),
      };
    if (sentFrom !== undefined || sentBefore !== undefined)
      filter.createdAt = {
        ...(sentFrom !== undefined && { $gte: sentFrom }),
        ...(sentBefore !== undefined && { $lt: sentBefore }),
      };
    return documents.find(filter, { sort: { seq: order === 'newest' ? -1 : 1 }, limit });
  },
  async bySenderKey(senderId, clientMessageId) {
    const [found] = await documents.find({ sender: senderId, clientMessageId }, { limit: 1 });
    return found ?? null;
  },
  expiring: (until, limit) =>
    documents.find({ expiresAt: { $lte: until } }, { sort: { expiresAt: 1 }, limit }),
  async nextExpiry(after) {
    const [next] = await documents.find({ expiresAt: { $gt: after } }, { sort: { expiresAt: 1 }, limit: 1 });
    return next?.expiresAt ?? null;
  },
});

/** The timeline the service reads, and the documents its projection writes (none when the log answers). */
export interface OpenedTimeline {
  messages: MessageTimeline;
  documents: Collection<TimelineMessage> | null;
}

/**
 * Opens the timeline: the one the composition root gives (`Ports.messageTimeline`, answered from
 * the event log in embedded mode), or else the read model. Given one, a read model left by an
 * earlier version is dropped: no longer written, it would keep the ciphertext of messages
 * deleted or expired from then on (docs/decisions.md, "The message timeline").
 */
export const openTimeline = async (
  readStore: ReadStore,
  fromLog: MessageTimeline | undefined,
): Promise<OpenedTimeline> => {
  if (fromLog) {
    await readStore.drop(timelineCollection);
    return { messages: fromLog, documents: null };
  }
  const documents = await readStore.collection<TimelineMessage>(timelineCollection, [
    { fields: { chat: 1, seq: 1 } },
    { fields: { sender: 1, clientMessageId: 1 } },
    { fields: { expiresAt: 1 } },
  ]);
  return { messages: tableTimeline(documents), documents };
};
