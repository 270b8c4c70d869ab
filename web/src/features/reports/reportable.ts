import type { DisplayMessage } from '../messages/index.ts';

/** How many messages before the reported one a report may carry (the server's limit). */
export const earlierMessagesMax = 4;

/**
 * Whether the server can verify a report of this message: it was read here, the signature of what
 * is shown (the message as sent, or its last edit) and its franking tag checked (version 3), it
 * carries the franking key of that text, it is no call's entry, and it was not deleted
 * (docs/crypto.md, "Message franking").
 */
export const canBeReported = (message: DisplayMessage): boolean =>
  message.readState === 'read' &&
  message.verification?.status !== 'failed' &&
  (message.editedAt ? message.editSignature : message.signature)?.version === 3 &&
  Boolean(message.frankingKey) &&
  // A call's entry has no text of its sender's to report.
  !message.call &&
  !message.deleted;

/** Others' messages only: one does not report oneself. */
export const isReportable = (message: DisplayMessage, myId: string): boolean =>
  message.sender._id !== myId && message.verification?.status === 'verified' && canBeReported(message);

/**
 * The messages right before `messageId` that a report can carry as context (up to
 * `earlierMessagesMax`, oldest first), anyone's: a run ends at the first one that cannot be verified.
 */
export const earlierForReport = (
  messages: readonly DisplayMessage[],
  messageId: string,
): DisplayMessage[] => {
  const at = messages.findIndex((message) => message._id === messageId);
  const earlier: DisplayMessage[] = [];
  for (let i = at - 1; i >= 0 && earlier.length < earlierMessagesMax; i--) {
    const message = messages[i]!;
    if (!canBeReported(message)) break;
    earlier.unshift(message);
  }
  return earlier;
};
