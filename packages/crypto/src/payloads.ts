import { encryptMessage } from './envelope.ts';
import { VeilCryptoError } from './errors.ts';

/** The spec's send payloads (section 3, "Send payload"), built from an envelope. */
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

export const buildIndividualPayload = async (
  text: string,
  parties: IndividualParties,
  replyTo?: string,
): Promise<IndividualPayload> => {
  if (!parties.recipientId || !text || !parties.senderId)
    throw new VeilCryptoError('ERR_MISSING_INPUT', MISSING_INPUT_TEXT);
  const envelope = await encryptMessage(text, {
    [parties.recipientId]: parties.recipientKey,
    [parties.senderId]: parties.senderKey,
  });
  return {
    encryptedMessage: envelope.content,
    iv: envelope.iv,
    encryptedAESKeyForRecipient: envelope.encryptedKeys[parties.recipientId]!,
    encryptedAESKeyForSender: envelope.encryptedKeys[parties.senderId]!,
    ...(replyTo ? { replyTo } : {}),
  };
};

/** Groups: the key is wrapped for every member (the sender included), by member id. */
export const buildGroupPayload = async (
  text: string,
  members: Record<string, CryptoKey>,
  replyTo?: string,
): Promise<GroupPayload> => {
  if (!text) throw new VeilCryptoError('ERR_MISSING_INPUT', MISSING_INPUT_TEXT);
  const envelope = await encryptMessage(text, members);
  return {
    encryptedMessage: envelope.content,
    iv: envelope.iv,
    encryptedKeys: envelope.encryptedKeys,
    ...(replyTo ? { replyTo } : {}),
  };
};
