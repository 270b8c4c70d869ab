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
  /** Files sent with it (their keys were inside the ciphertext); absent: none. */
  attachments?: AttachmentRef[];
}

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

/** The message's text for `userId`, or why it cannot be read in this browser. */
const readForUser = async (
  message: MessageView,
  userId: string,
): Promise<Pick<DisplayMessage, 'decryptedContent' | 'readState' | 'attachments'>> => {
  const keys = await accountKeyRing(userId);
  const envelope = { content: message.content, iv: message.iv, encryptedKeys: message.encryptedKeys };
  const reading = await readMessage(
    envelope,
    userId,
    keys.map((key) => key.privateKey),
  );
  if (reading.ok) {
    const { text, attachments } = decodeMessageContent(reading.text);
    return { decryptedContent: text, readState: 'read', ...(attachments.length && { attachments }) };
  }
  // The published key is needed only to tell a reset key from a missing or damaged one.
  const published =
    keys.length && reading.failure === 'no-key-fits' ? await publishedAccountKey(userId) : null;
  const held = keys.map((key) => key.publicKey);
  const readState = unreadableState(reading.failure, held, published, message.createdAt);
  return { decryptedContent: readStateTexts[readState], readState };
};

/** Decrypts a message (and the message it replies to) for `userId` with the account's keys in this browser. */
export const decryptForUser = async (message: MessageView, userId: string): Promise<DisplayMessage> => {
  const [read, replyTo] = await Promise.all([
    readForUser(message, userId),
    message.replyTo ? decryptForUser({ ...message.replyTo, replyTo: null }, userId) : Promise.resolve(null),
  ]);
  return { ...message, seenBy: { ...message.seenBy }, ...read, replyTo };
};

export const decryptAllForUser = (
  messages: readonly MessageView[],
  userId: string,
): Promise<DisplayMessage[]> => Promise.all(messages.map((message) => decryptForUser(message, userId)));
