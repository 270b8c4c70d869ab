/**
 * Read receipts are reciprocal (as WhatsApp has them): a reader who turned them off is shown as
 * having seen nothing, and sees no one else's receipts either. Their own stay theirs: what they
 * have read is kept (it drives their unread state), only not shown to others.
 */
export const visibleSeenBy = (
  seenBy: Readonly<Record<string, true>>,
  viewerId: string,
  sendsReceipts: (userId: string) => boolean,
): Record<string, true> => {
  const viewerSends = sendsReceipts(viewerId);
  return Object.fromEntries(
    Object.keys(seenBy)
      .filter((reader) => reader === viewerId || (viewerSends && sendsReceipts(reader)))
      .map((reader) => [reader, true] as const),
  );
};
