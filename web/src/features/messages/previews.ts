import type { MessageView } from '@veil/contracts';
import { frankingFits, readSealedForUser } from './crypto.ts';
import { t } from '../../lib/i18n.ts';
import {
  commitmentHolds,
  keyLogOf,
  shownSignatureOf,
  verifyMessage,
  type ChatContext,
} from '../keys/index.ts';
import { previewText } from './preview-text.ts';

/**
 * Chat list previews, verified and decrypted once per message and page load. Only the previews
 * that come into view are checked and decrypted (an RSA decryption each; the senders' key logs
 * are fetched once per page), so a list of hundreds of chats shows at once.
 */
interface Known {
  /** The message as it was when its text was read: the same id with other content is not it. */
  stamp: string;
  text: string;
}
const texts = new Map<string, Known>();

/** Preview text for a message as a list row holds it (a chat's newest message). */
export type PreviewMessage = Omit<MessageView, 'replyTo'> & { replyTo: { _id: string } | null };

/** What a kept text belongs to: everything its signature covers, as the message was shown. */
const stampOf = (message: PreviewMessage) =>
  [
    message.chat,
    message.sender._id,
    message.content,
    message.iv,
    message.replyTo?._id ?? '',
    message.editedAt ?? '',
    message.deleted ? 'deleted' : '',
  ].join('\n');

/** A preview this browser cannot read (no key for it here, or a damaged message). */
export const unreadablePreview = () => t('chats.encrypted');

/** A preview whose signature does not hold: its text is never shown. */
export const unverifiedPreview = () => t('chats.unverified');

export { previewText } from './preview-text.ts';

/** About the rows a screen shows at once: the previews most likely to be in view first. */
const likelyInView = 16;

/**
 * Starts fetching the key logs of the senders of the newest messages, as soon as they are known:
 * the list's first rows check their previews against them once drawn, and the fetches then run
 * while the list is drawn instead of after it.
 */
export const prefetchPreviewKeyLogs = (userId: string, newest: readonly (MessageView | null)[]) => {
  const senders = newest
    .filter((message): message is MessageView => !!message && message.sender._id !== userId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, likelyInView)
    .map((message) => message.sender._id);
  for (const sender of new Set(senders)) void keyLogOf(userId, sender);
};

export const knownPreview = (message: PreviewMessage): string | undefined => {
  const known = texts.get(message._id);
  return known?.stamp === stampOf(message) ? known.text : undefined;
};

/** A message that disappeared: its text is not kept here either. */
export const forgetPreview = (messageId: string) => void texts.delete(messageId);

/** The sender's own text needs no decryption: it is remembered as sent (and signed) here. */
export const rememberPreview = (message: PreviewMessage, text: string) =>
  void texts.set(message._id, { stamp: stampOf(message), text });

/**
 * A chat's newest message as its list row shows it: checked as the open chat checks it (the
 * chat's context, with the summary of the key map when only the reader's key came; the key
 * commitment and the franking tag), then decrypted. A message that fails shows that it could not be verified, never its text.
 */
export const decryptPreview = async (
  message: PreviewMessage,
  userId: string,
  context: ChatContext,
): Promise<string> => {
  const known = knownPreview(message);
  if (known !== undefined) return known;
  const [read, verification] = await Promise.all([
    // A message deleted for everyone has no text: only its deletion is checked.
    message.deleted ? null : readSealedForUser(message, message.createdAt, userId),
    verifyMessage(message, context, userId),
  ]);
  // Not kept: the sender's key log may be fetched again, a key restored.
  if (verification.status === 'failed') return unverifiedPreview();
  // As the open chat: a key other than the one committed to, or a franking tag the text does not
  // give, fails the message however well its signature holds.
  if (read?.readState === 'read') {
    const signature = shownSignatureOf(message);
    if (!commitmentHolds(signature, read.keyCommitment) || !(await frankingFits(signature, read)))
      return unverifiedPreview();
  }
  // The open chat says why a message cannot be read; a list row only that it cannot. That can
  // change (a key restored), so only a read text is kept.
  if (read && read.readState !== 'read') return unreadablePreview();
  // Deleted for everyone (its deletion checked above): the open chat's words, in the current language.
  if (!read) return t('messages.deleted');
  const preview = previewText(read.decryptedContent, read.attachments);
  rememberPreview(message, preview);
  return preview;
};
