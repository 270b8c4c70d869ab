import { pushPayloadSchema, type PushPayload } from '@veil/contracts';
import {
  checkMessageSignature,
  decodeMessageContent,
  directChatRef,
  frankingHolds,
  readMessage,
  type CallRecord,
} from '@veil/crypto';
import {
  readStoredKeyLog,
  legacyOnlyBeforeSignedLog,
  commitmentHolds,
  sequenceOf,
  readAccountKeys,
} from '../../keys/worker.ts';
import { ar } from '../../../locales/ar.ts';
import { de } from '../../../locales/de.ts';
import { en } from '../../../locales/en.ts';
import { previewText } from '../../messages/worker.ts';
import { mentionsUser } from '../../mentions/worker.ts';
import { readNotificationSettings } from '../notification-store.ts';

/**
 * What a push shows when it cannot show more (too large to carry the message, or unreadable
 * here), in the browser's language: the worker has no page, and no language switch, of its own.
 */
/** The worker's texts, in the browser's language: it has no i18n instance of its own. */
export const workerTexts = (language = globalThis.navigator?.language ?? 'en'): typeof en =>
  // Every shipped language has English's keys (locales.unit.test.ts).
  (({ ar, de })[language.slice(0, 2) as 'ar' | 'de'] ?? en) as typeof en;

export const newMessageText = (language?: string): string => workerTexts(language).notifications.newMessage;

/** A call's entry, as a notification says it (the minutes left out: "Missed video call" matters). */
const callText = (call: CallRecord): string => {
  const record = workerTexts().calls.record;
  if (call.seconds === null) return call.media === 'video' ? record.missedVideo : record.missedVoice;
  const count = String(Math.max(1, Math.ceil(call.seconds / 60)));
  return (call.media === 'video' ? record.video : record.voice).replace('{{count}}', count);
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
 * show (not a Veil push, notifications off for that account, the chat muted and the message
 * not mentioning this account, which only its decrypted and checked content says). The text is
 * decrypted here with the account's private keys from IndexedDB; the push carried only the
 * ciphertext and the key wrapped for this account. It shows only if the sender's signature holds
 * against the sender's key log as a page of this account last checked it; otherwise the
 * notification says only that a message came.
 */
export const notificationForPush = async (data: unknown): Promise<PushNotification | null> => {
  const parsed = pushPayloadSchema.safeParse(data);
  if (!parsed.success) return null;
  const push = parsed.data;
  const settings = await readNotificationSettings(push.userId);
  if (!settings.enabled) return null;
  const { text, mentionsMe } = await contentOf(push);
  if (settings.muted.includes(push.chatId) && !mentionsMe) return null;
  return { title: push.sender.username ?? newMessageText(), body: text, chatId: push.chatId };
};

/**
 * Whether a pushed message is its sender's, checked as the open chat checks it: rebuilt from the
 * push (the chat a group's id, or the one-to-one chat of the sender and this account; the key
 * map's summary, which must name this account), against the sender's stored key log at the time
 * the server stored it. No stored log: not checked, so not shown. A message from before
 * signatures (`legacy`, stored before the log's first signed entry) is shown, as in the chat.
 */
const isSenders = async (push: PushPayload): Promise<boolean> => {
  const { message, userId, sender } = push;
  if (!message?.keyMap.members.includes(userId)) return false;
  const log = await readStoredKeyLog(userId, sender._id);
  if (!log) return false;
  const sequence = sequenceOf(message.signature);
  const verdict = await checkMessageSignature(
    log,
    push.sentAt,
    {
      ciphertext: message.content,
      iv: message.iv,
      chat: message.isGroupChat ? push.chatId : directChatRef(sender._id, userId),
      senderId: sender._id,
      clientMessageId: message.clientMessageId ?? '',
      replyTo: message.replyTo,
      createdAt: message.signature?.signedAt ?? '',
      encryptedKeys: message.keyMap,
      ...(sequence && { v2: sequence }),
    },
    message.signature?.value,
  );
  return legacyOnlyBeforeSignedLog(log, push.sentAt, verdict).status !== 'failed';
};

/** What a push shows, and whether it mentions this account (only a readable, genuine message can). */
const contentOf = async (push: PushPayload): Promise<{ text: string; mentionsMe: boolean }> => {
  const { message, userId } = push;
  const unread = { text: newMessageText(), mentionsMe: false };
  if (!message) return unread;
  const keys = await readAccountKeys(userId);
  const [reading, genuine] = await Promise.all([
    readMessage(
      { content: message.content, iv: message.iv, encryptedKeys: { [userId]: message.encryptedKey } },
      userId,
      keys.map((key) => key.privateKey),
    ),
    isSenders(push),
  ]);
  // A key other than the one the signature commits to: a two-faced message, shown as none.
  if (!reading.ok || !genuine || !commitmentHolds(message.signature, reading.keyCommitment)) return unread;
  const { text, attachments, franking, call, mentions } = decodeMessageContent(reading.text);
  // A franking tag its text and key do not give: shown as none, as the open chat refuses it.
  const tag = message.signature?.version === 3 ? message.signature.franking : undefined;
  if (tag && !(franking && (await frankingHolds(text, franking, tag)))) return unread;
  if (call) return { text: callText(call), mentionsMe: false };
  return {
    text: previewText(text, attachments) || newMessageText(),
    mentionsMe: mentionsUser(mentions, userId),
  };
};
