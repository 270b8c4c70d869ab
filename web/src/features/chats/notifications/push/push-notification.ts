import { pushPayloadSchema, type PushPayload } from '@veil/contracts';
import { decodeMessageContent, readMessage } from '@veil/crypto';
import { readAccountKeys } from '../../../../lib/key-store.ts';
import { ar } from '../../../../locales/ar.ts';
import { de } from '../../../../locales/de.ts';
import { en } from '../../../../locales/en.ts';
import { previewText } from '../../preview-text.ts';
import { readNotificationSettings } from '../notification-store.ts';

/**
 * What a push shows when it cannot show more (too large to carry the message, or unreadable
 * here), in the browser's language: the worker has no page, and no language switch, of its own.
 */
export const newMessageText = (language = globalThis.navigator?.language ?? 'en'): string => {
  // Every shipped language has English's keys (locales.unit.test.ts).
  const texts = ({ ar, de }[language.slice(0, 2) as 'ar' | 'de'] ?? en) as typeof en;
  return texts.notifications.newMessage;
};

export interface PushNotification {
  title: string;
  body: string;
  chatId: string;
}

/** Where a notification for `chatId` leads. */
export const chatUrl = (chatId: string) => `/all-chats?chat=${encodeURIComponent(chatId)}`;

/**
 * The notification for one push, worked out in the service worker: null when nothing should
 * show (not a Veil push, notifications off for that account, the chat muted). The text is
 * decrypted here with the account's private keys from IndexedDB; the push carried only the
 * ciphertext and the key wrapped for this account.
 */
export const notificationForPush = async (data: unknown): Promise<PushNotification | null> => {
  const parsed = pushPayloadSchema.safeParse(data);
  if (!parsed.success) return null;
  const push = parsed.data;
  const settings = await readNotificationSettings(push.userId);
  if (!settings.enabled || settings.muted.includes(push.chatId)) return null;
  return { title: push.sender.username ?? newMessageText(), body: await textOf(push), chatId: push.chatId };
};

const textOf = async ({ message, userId }: PushPayload): Promise<string> => {
  if (!message) return newMessageText();
  const keys = await readAccountKeys(userId);
  const reading = await readMessage(
    { content: message.content, iv: message.iv, encryptedKeys: { [userId]: message.encryptedKey } },
    userId,
    keys.map((key) => key.privateKey),
  );
  if (!reading.ok) return newMessageText();
  const { text, attachments } = decodeMessageContent(reading.text);
  return previewText(text, attachments) || newMessageText();
};
