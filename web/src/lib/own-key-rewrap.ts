import { limits, type ChatView, type MessageView } from '@veil/contracts';
import { importPublicKeySpkiBase64, rewrapMessageKey } from '@veil/crypto';
import { accountKeyRing, publishedAccountKey } from './account-keys.ts';
import { fetchData } from './fetch-data.ts';

/**
 * After a key reset, a browser that still holds the account's older key re-wraps the account's
 * own copies of message keys sealed for that key, for the current one: every browser that holds
 * the current key then reads that history too (docs/crypto.md, "Key reset"). The message keys
 * never leave this browser unwrapped; the server stores each copy beside the signed key map.
 */

interface HistoryPage {
  messages: MessageView[];
  hasMore: boolean;
}

const isChatList = (data: unknown): data is ChatView[] => Array.isArray(data);
const isHistoryPage = (data: unknown): data is HistoryPage =>
  Array.isArray((data as HistoryPage | null)?.messages);
const isRewrapAnswer = (data: unknown): data is { rewrapped: number } =>
  typeof (data as { rewrapped?: unknown } | null)?.rewrapped === 'number';

/** Remembers, per account, the current key's publication whose history this browser went through. */
const doneMarker = (userId: string) => `veil.rewrapped.${userId}`;

const historyPage = (chatId: string, before?: number) =>
  fetchData(
    `chat/getallmessages/${encodeURIComponent(chatId)}?limit=${limits.rewrapBatchMax}${before ? `&before=${before}` : ''}`,
    isHistoryPage,
  );

/**
 * Goes through every chat's history once per key reset and stores a copy for each message that
 * this browser's older keys open and that has none yet. Resolves how many copies were stored.
 * A failure (offline, a spent write budget) stops the pass; the next login or page load goes on,
 * skipping what has copies already.
 */
export const rewrapOwnCopies = async (userId: string): Promise<number> => {
  const [ring, published] = await Promise.all([accountKeyRing(userId), publishedAccountKey(userId)]);
  if (!published) return 0;
  const olderKeys = ring.filter((key) => key.publicKey !== published.publicKey).map((key) => key.privateKey);
  if (olderKeys.length === 0 || localStorage.getItem(doneMarker(userId)) === published.publishedAt) return 0;
  const currentKey = await importPublicKeySpkiBase64(published.publicKey);
  const resetAt = Date.parse(published.publishedAt);

  let stored = 0;
  for (const chat of await fetchData('chat/getallchats', isChatList)) {
    let before: number | undefined;
    do {
      const page = await historyPage(chat._id, before);
      const copies: { messageId: string; encryptedKey: string }[] = [];
      for (const message of page.messages) {
        const own = message.encryptedKeys[userId];
        // Messages after the reset were sealed for the current key already.
        if (
          !own ||
          message.deleted ||
          message.rewrappedKeys?.[userId] ||
          Date.parse(message.createdAt) >= resetAt
        )
          continue;
        const copy = await rewrapMessageKey(own, olderKeys, currentKey);
        if (copy) copies.push({ messageId: message._id, encryptedKey: copy });
      }
      if (copies.length)
        stored += (await fetchData('message/rewrap', isRewrapAnswer, { json: { copies } })).rewrapped;
      before = page.hasMore ? page.messages[0]?.seq : undefined;
    } while (before !== undefined);
  }
  localStorage.setItem(doneMarker(userId), published.publishedAt);
  return stored;
};
