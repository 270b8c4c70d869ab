import type { DisplayMessage } from './display-message.ts';

/**
 * A read receipt can overtake the message it is about: the recipient may see a message (and
 * its `update seen` reach the sender) before the sender's own HTTP response has been decrypted
 * into the history. Such receipts are held here until the message arrives, instead of lost.
 */
const held = new Map<string, Record<string, true>>();
const maxHeld = 500;

export const holdReceipt = (messageId: string, userId: string): void => {
  held.set(messageId, { ...held.get(messageId), [userId]: true });
  if (held.size > maxHeld) held.delete(held.keys().next().value!);
};

/** The messages with any held receipts applied (and released). */
export const withHeldReceipts = (messages: readonly DisplayMessage[]): DisplayMessage[] =>
  messages.map((message) => {
    const receipts = held.get(message._id);
    if (!receipts) return message;
    held.delete(message._id);
    return { ...message, seenBy: { ...message.seenBy, ...receipts } };
  });
