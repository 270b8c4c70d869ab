import type { MessageView } from '@veil/contracts';
import {
  PublicKeyCache,
  buildGroupPayload,
  buildIndividualPayload,
  decodeMessageContent,
  readMessage,
  type AttachmentRef,
  type GroupPayload,
  type IndividualPayload,
} from '@veil/crypto';
import { accountKeyRing, publishedAccountKey } from './account-keys.ts';
import { fetchPublishedKey } from './public-key-api.ts';
import { readStateTexts, unreadableState, type ReadState } from './read-state.ts';

/**
 * The web client's use of @veil/crypto: which keys to use for what. No cryptography is written
 * here; it all lives in packages/crypto.
 */

/**
 * A message as screens show it: the API's message plus its plaintext (never sent anywhere), or,
 * when it cannot be read here, the text that says why (`readState`).
 */
export interface DisplayMessage extends Omit<MessageView, 'replyTo'> {
  decryptedContent: string;
  readState: ReadState;
  replyTo: DisplayMessage | null;
  /** Each member's reaction as this reader sees it (an emoji), by user id; unreadable ones left out. */
  reactionTexts: Record<string, string>;
  /** Files sent with it (their keys were inside the ciphertext); absent: none. */
  attachments?: AttachmentRef[];
}

/**
 * Ciphertext with its iv and wrapped keys: a message's text, an edit, a reaction; a message may
 * also carry its members' own key copies re-wrapped after a key reset.
 */
export type Sealed = Pick<MessageView, 'content' | 'iv' | 'encryptedKeys' | 'rewrappedKeys'>;

/** Public keys are fetched once per page and user; its errors read "Failed to fetch recipient public key". */
export const publicKeys = new PublicKeyCache(fetchPublishedKey);

/** Builds the one-to-one send payload: the message key wrapped for the recipient and for the sender. */
export const encryptForIndividual = async (
  text: string,
  senderId: string,
  recipientId: string,
  replyTo?: string,
): Promise<IndividualPayload> => {
  const [recipientKey, senderKey] = await Promise.all([
    publicKeys.get(recipientId),
    publicKeys.get(senderId),
  ]);
  return buildIndividualPayload(text, { recipientId, recipientKey, senderId, senderKey }, replyTo);
};

/** Builds the group send payload: the message key wrapped for every member (the sender included). */
export const encryptForGroup = async (
  text: string,
  memberIds: readonly string[],
  replyTo?: string,
): Promise<GroupPayload> =>
  buildGroupPayload(text, await publicKeys.getMany([...new Set(memberIds)]), replyTo);

/**
 * Sealed text for `userId`, or why it cannot be read in this browser. `sentAt` tells a key
 * reset apart from a missing key.
 */
export const readSealedForUser = async (
  sealed: Sealed,
  sentAt: string,
  userId: string,
): Promise<Pick<DisplayMessage, 'decryptedContent' | 'readState' | 'attachments'>> => {
  const keys = await accountKeyRing(userId);
  const envelope = { content: sealed.content, iv: sealed.iv, encryptedKeys: sealed.encryptedKeys };
  const privateKeys = keys.map((key) => key.privateKey);
  let reading = await readMessage(envelope, userId, privateKeys);
  // Sealed for a key from before a reset: a browser that kept that key may have left a copy.
  const copy = sealed.rewrappedKeys?.[userId];
  if (!reading.ok && reading.failure === 'no-key-fits' && copy)
    reading = await readMessage({ ...envelope, encryptedKeys: { [userId]: copy } }, userId, privateKeys);
  if (reading.ok) {
    const { text, attachments } = decodeMessageContent(reading.text);
    return { decryptedContent: text, readState: 'read', ...(attachments.length && { attachments }) };
  }
  // The published key is needed only to tell a reset key from a missing or damaged one.
  const published = reading.failure === 'no-key-fits' ? await publishedAccountKey(userId) : null;
  const held = keys.map((key) => key.publicKey);
  const readState = unreadableState(reading.failure, held, published, sentAt);
  return { decryptedContent: readStateTexts[readState], readState };
};

/** The reactions this reader can read, as emoji by user id. */
export const readReactionsForUser = async (
  reactions: MessageView['reactions'],
  userId: string,
): Promise<Record<string, string>> => {
  const read = await Promise.all(
    Object.entries(reactions ?? {}).map(async ([reactor, sealed]) => {
      const { decryptedContent, readState } = await readSealedForUser(sealed, '', userId);
      return readState === 'read' ? [[reactor, decryptedContent] as const] : [];
    }),
  );
  return Object.fromEntries(read.flat());
};

/** Decrypts a message (and the message it replies to) for `userId` with the account's keys in this browser. */
export const decryptForUser = async (message: MessageView, userId: string): Promise<DisplayMessage> => {
  // A message deleted for everyone has no ciphertext left: nothing to read.
  const [read, replyTo, reactionTexts] = await Promise.all([
    message.deleted
      ? { decryptedContent: '', readState: 'read' as const }
      : readSealedForUser(message, message.createdAt, userId),
    message.replyTo ? decryptForUser({ ...message.replyTo, replyTo: null }, userId) : Promise.resolve(null),
    readReactionsForUser(message.reactions, userId),
  ]);
  return { ...message, seenBy: { ...message.seenBy }, ...read, replyTo, reactionTexts };
};

export const decryptAllForUser = (
  messages: readonly MessageView[],
  userId: string,
): Promise<DisplayMessage[]> => Promise.all(messages.map((message) => decryptForUser(message, userId)));
