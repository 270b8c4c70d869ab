import type { MessageView } from '@veil/contracts';
import { decryptForUser } from '../../lib/crypto.ts';
import { t } from '../../lib/i18n.ts';
import { previewText } from './preview-text.ts';

/**
 * Chat list previews, decrypted once per message and page load. Only the previews that come
 * into view are decrypted (an RSA decryption each), so a list of hundreds of chats shows at once.
 */
const texts = new Map<string, string>();

/** A preview this browser cannot read (no key for it here, or a damaged message). */
export const unreadablePreview = () => t('chats.encrypted');

export { previewText } from './preview-text.ts';

export const knownPreview = (messageId: string) => texts.get(messageId);

/** A message that disappeared: its text is not kept here either. */
export const forgetPreview = (messageId: string) => void texts.delete(messageId);

/** The sender's own text needs no decryption: it is remembered when sent. */
export const rememberPreview = (messageId: string, text: string) => void texts.set(messageId, text);

export const decryptPreview = async (message: MessageView, userId: string): Promise<string> => {
  const known = texts.get(message._id);
  if (known !== undefined) return known;
  const { decryptedContent, readState, attachments } = await decryptForUser(
    { ...message, replyTo: null },
    userId,
  );
  // The open chat says why a message cannot be read; a list row only that it cannot. That can
  // change (a key restored), so only a read text is kept.
  if (readState !== 'read') return unreadablePreview();
  const preview = previewText(decryptedContent, attachments);
  texts.set(message._id, preview);
  return preview;
};
