import { encryptMessage } from './envelope.ts';
import { VeilCryptoError } from './errors.ts';
import type { Padding } from './padding.ts';

/** The seed contract's send payloads (the `sendIndividualMessage` and `sendGroupMessage` rows of docs/api.md), built from an envelope. */
export interface IndividualPayload {
  encryptedMessage: string;
  iv: string;
  encryptedAESKeyForRecipient: string;
  encryptedAESKeyForSender: string;
  replyTo?: string;
}

export interface GroupPayload {
  encryptedMessage: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  replyTo?: string;
}

export interface IndividualParties {
  recipientId: string;
  recipientKey: CryptoKey;
  senderId: string;
  senderKey: CryptoKey;
}

export const MISSING_INPUT_TEXT = 'recipientID, messageText, and currentUserID are required';

/** A payload and the commitment to its message key, which the sender's signature covers. */
export interface Committed<Payload> {
  payload: Payload;
  keyCommitment: string;
}

export const buildIndividualPayload = async (
  text: string,
  parties: IndividualParties,
  replyTo?: string,
): Promise<IndividualPayload> => (await sealIndividualPayload(text, parties, replyTo)).payload;

/** `buildIndividualPayload`, with the commitment to the message key beside the payload. */
export const sealIndividualPayload = async (
  text: string,
  parties: IndividualParties,
  replyTo?: string,
  padding?: Padding,
): Promise<Committed<IndividualPayload>> => {
  if (!parties.recipientId || !text || !parties.senderId)
    throw new VeilCryptoError('ERR_MISSING_INPUT', MISSING_INPUT_TEXT);
  const envelope = await encryptMessage(
    text,
    {
      [parties.recipientId]: parties.recipientKey,
      [parties.senderId]: parties.senderKey,
    },
    padding,
  );
  return {
    payload: {
      encryptedMessage: envelope.content,
      iv: envelope.iv,
      encryptedAESKeyForRecipient: envelope.encryptedKeys[parties.recipientId]!,
      encryptedAESKeyForSender: envelope.encryptedKeys[parties.senderId]!,
      ...(replyTo ? { replyTo } : {}),
    },
    keyCommitment: envelope.keyCommitment!,
  };
};

/** Groups: the key is wrapped for every member (the sender included), by member id. */
export const buildGroupPayload = async (
  text: string,
  members: Record<string, CryptoKey>,
  replyTo?: string,
): Promise<GroupPayload> => (await sealGroupPayload(text, members, replyTo)).payload;

/** `buildGroupPayload`, with the commitment to the message key beside the payload. */
export const sealGroupPayload = async (
  text: string,
  members: Record<string, CryptoKey>,
  replyTo?: string,
  padding?: Padding,
): Promise<Committed<GroupPayload>> => {
  if (!text) throw new VeilCryptoError('ERR_MISSING_INPUT', MISSING_INPUT_TEXT);
  const envelope = await encryptMessage(text, members, padding);
  return {
    payload: {
      encryptedMessage: envelope.content,
      iv: envelope.iv,
      encryptedKeys: envelope.encryptedKeys,
      ...(replyTo ? { replyTo } : {}),
    },
    keyCommitment: envelope.keyCommitment!,
  };
};
