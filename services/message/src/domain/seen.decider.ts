import type { EventData } from '@veil/contracts';

export interface SeenReport {
  chatId: string;
  messageId: string;
}

/** What deciding needs about each reported message and chat, read by the handler first. */
export interface SeenState {
  messages: ReadonlyMap<string, { chat: string; sender: string; seenBy: Readonly<Record<string, true>> }>;
  members: ReadonlyMap<string, readonly string[]>;
}

/**
 * The rules of read receipts, without I/O: a user marks as seen only another member's message,
 * in the chat the report names, once; a repeated report and anything else is dropped silently
 * (a client reports in batches, and a stale one must not fail the batch). Returns one
 * MessageSeen payload per receipt to record.
 */
export const decideSeen = (
  userId: string,
  reports: readonly SeenReport[],
  state: SeenState,
): EventData<'MessageSeen'>[] => {
  const unique = [...new Map(reports.map((report) => [report.messageId, report])).values()];
  return unique
    .filter(({ chatId, messageId }) => {
      const message = state.messages.get(messageId);
      return (
        message?.chat === chatId &&
        message.sender !== userId &&
        !message.seenBy[userId] &&
        (state.members.get(chatId)?.includes(userId) ?? false)
      );
    })
    .map(({ chatId, messageId }) => ({ messageId, chatId, userId }));
};
