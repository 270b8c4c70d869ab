import type { ChatView, MessageView } from '@veil/contracts';
import { limits } from '@veil/contracts/limits';
import { importPublicKeySpkiBase64, rewrapMessageKey, type KeyLogEntry } from '@veil/crypto';
import { accountKeyRing } from './account-keys.ts';
import { fetchData } from '../../lib/fetch-data.ts';
import { keyLogOf } from './key-logs.ts';

/**
 * After a key reset, a browser that still holds the account's older key re-wraps the account's
 * own copies of message keys sealed for that key, for the new one: every browser that holds the
 * new key then reads that history too (docs/crypto.md, "Key reset"). The key it re-wraps to is
 * only ever one that a `reset` entry of the account's own checked key log introduced and that
 * is still the log's current key: never what `GET /user/keyStatus` names, since a server that
 * could name the target key would have the whole history sealed for itself. The message keys
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

/** Remembers, per account, the reset entry (its hash) whose history this browser went through. */
const doneMarker = (userId: string) => `veil.rewrapped.${userId}`;

const historyPage = (chatId: string, before?: number) =>
  fetchData(
    `chat/getallmessages/${encodeURIComponent(chatId)}?limit=${limits.rewrapBatchMax}${before ? `&before=${before}` : ''}`,
    isHistoryPage,
  );

/** What the user is shown of a pass: how far it is, and that it ended. */
export type RewrapProgress =
  { state: 'idle' } | { state: 'working'; done: number; total: number } | { state: 'done'; total: number };

let progress: RewrapProgress = { state: 'idle' };
const listeners = new Set<() => void>();
const report = (next: RewrapProgress) => {
  progress = next;
  for (const listener of listeners) listener();
};
export const rewrapProgress = (): RewrapProgress => progress;
export const onRewrapProgress = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The reset entry of the account's own checked log whose key is its current one: the only key
 * history is re-wrapped to. None when the log does not check out, has no reset, or a later
 * entry names another key.
 */
export const ownResetTarget = async (userId: string): Promise<KeyLogEntry | null> => {
  const log = await keyLogOf(userId, userId);
  if (!log.ok) return null;
  const head = log.entries.at(-1);
  const reset = log.entries.findLast((entry) => entry.reason === 'reset');
  return head && reset && reset.encryptionKey === head.encryptionKey ? reset : null;
};

/** The messages from before the reset that hold this account's key and have no copy yet. */
const messagesToRewrap = async (userId: string, resetAt: number): Promise<MessageView[]> => {
  const found: MessageView[] = [];
  for (const chat of await fetchData('chat/getallchats', isChatList)) {
    let before: number | undefined;
    do {
      const page = await historyPage(chat._id, before);
      for (const message of page.messages)
        // Messages after the reset were sealed for the new key already.
        if (
          message.encryptedKeys[userId] &&
          !message.deleted &&
          !message.rewrappedKeys?.[userId] &&
          Date.parse(message.createdAt) < resetAt
        )
          found.push(message);
      before = page.hasMore ? page.messages[0]?.seq : undefined;
    } while (before !== undefined);
  }
  return found;
};

/**
 * Goes through every chat's history once per reset of the account's own checked log and stores
 * a copy for each message that this browser's older keys open (to a 32-byte key that opens the
 * message's ciphertext) and that has none yet. Resolves how many copies were stored. A failure
 * (offline, a spent write budget) stops the pass; the next login or page load goes on, skipping
 * what has copies already.
 */
export const rewrapOwnCopies = async (userId: string): Promise<number> => {
  const [ring, reset] = await Promise.all([accountKeyRing(userId), ownResetTarget(userId)]);
  if (!reset) return 0;
  const olderKeys = ring.filter((key) => key.publicKey !== reset.encryptionKey).map((key) => key.privateKey);
  if (olderKeys.length === 0 || localStorage.getItem(doneMarker(userId)) === reset.hash) return 0;
  const currentKey = await importPublicKeySpkiBase64(reset.encryptionKey);

  const messages = await messagesToRewrap(userId, Date.parse(reset.at));
  let stored = 0;
  try {
    for (let start = 0; start < messages.length; start += limits.rewrapBatchMax) {
      report({ state: 'working', done: start, total: messages.length });
      const copies: { messageId: string; encryptedKey: string }[] = [];
      for (const message of messages.slice(start, start + limits.rewrapBatchMax)) {
        const copy = await rewrapMessageKey(
          { wrappedKey: message.encryptedKeys[userId]!, content: message.content, iv: message.iv },
          olderKeys,
          currentKey,
        );
        if (copy) copies.push({ messageId: message._id, encryptedKey: copy });
      }
      if (copies.length)
        stored += (await fetchData('message/rewrap', isRewrapAnswer, { json: { copies } })).rewrapped;
    }
  } catch (error) {
    report({ state: 'idle' });
    throw error;
  }
  if (messages.length) report({ state: 'done', total: messages.length });
  localStorage.setItem(doneMarker(userId), reset.hash);
  return stored;
};
