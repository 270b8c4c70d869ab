import type { MessageView } from '@veil/contracts';
import {
  PublicKeyCache,
  buildGroupPayload,
  buildIndividualPayload,
  decryptForDisplay,
  type GroupPayload,
  type IndividualPayload,
} from '@veil/crypto';
import { accountKeys } from './account-keys.ts';
import { fetchPublishedKey } from './public-key-api.ts';

/**
 * The web client's use of @veil/crypto: which keys to use for what. No cryptography is written
 * here; it all lives in packages/crypto.
 */

/** A message as screens show it: the API's message plus its plaintext (never sent anywhere). */
export interface DisplayMessage extends Omit<MessageView, 'replyTo'> {
  decryptedContent: string;
  replyTo: DisplayMessage | null;
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

/**
 * Decrypts a message (and the message it replies to) for `userId` with the account's keys in
 * this browser. No key here, a message not encrypted for this user or a damaged one all show
 * as "[Failed to decrypt]".
 */
export const decryptForUser = async (message: MessageView, userId: string): Promise<DisplayMessage> => {
  const privateKeys = await accountKeys(userId);
  const [decryptedContent, replyTo] = await Promise.all([
    decryptForDisplay(
      { content: message.content, iv: message.iv, encryptedKeys: message.encryptedKeys },
      userId,
      privateKeys,
    ),
    message.replyTo ? decryptForUser({ ...message.replyTo, replyTo: null }, userId) : Promise.resolve(null),
  ]);
  return { ...message, seenBy: { ...message.seenBy }, decryptedContent, replyTo };
};

export const decryptAllForUser = (
  messages: readonly MessageView[],
  userId: string,
): Promise<DisplayMessage[]> => Promise.all(messages.map((message) => decryptForUser(message, userId)));
