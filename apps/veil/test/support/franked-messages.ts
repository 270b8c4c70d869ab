import { directChatRef, encodeMessageContent, frankText, sealGroupPayload, signMessage } from '@veil/crypto';
import type { Api } from './api-client.ts';
import type { TestUser } from './users.ts';

type SigningUser = TestUser & { signing: CryptoKeyPair };

/** A message as its sender sent it, with what a member who reports it reveals. */
export interface FrankedMessage {
  messageId: string;
  chatId: string;
  text: string;
  frankingKey: string;
}

let sent = 0;

/**
 * Sends `text` as the web client does: the franking key sealed inside the content, the franking
 * tag in a version 3 signature over the message. To `to` (one-to-one) or into `groupId`, sealed
 * for `members` (the sender included).
 */
export const sendFranked = async (
  api: Api,
  from: SigningUser,
  members: TestUser[],
  text: string,
  where: { to: TestUser } | { groupId: string },
  /** Another key to sign with than the sender's own (a signature that does not hold). */
  signWith: CryptoKey = from.signing.privateKey,
): Promise<FrankedMessage> => {
  const franking = await frankText(text);
  const plaintext = encodeMessageContent({ text, attachments: [], franking: franking.key });
  const { payload, keyCommitment } = await sealGroupPayload(
    plaintext,
    Object.fromEntries(members.map((member) => [member._id, member.keys.publicKey])),
  );
  const log = (await api.get(`/api/v1/users/${from._id}/keyLog`, from.accessToken)).body.data;
  const clientMessageId = `franked-${Date.now().toString(36)}-${sent++}`;
  const createdAt = new Date().toISOString();
  const v2 = {
    keyCommitment,
    keyLogHeads: { [from._id]: log.entries.at(-1).hash as string },
    counter: sent,
    prev: null,
    franking: franking.tag,
  };
  const value = await signMessage(signWith, {
    ciphertext: payload.encryptedMessage,
    iv: payload.iv,
    chat: 'to' in where ? directChatRef(from._id, where.to._id) : where.groupId,
    senderId: from._id,
    clientMessageId,
    replyTo: null,
    createdAt,
    encryptedKeys: payload.encryptedKeys,
    v2,
  });
  const signature = { value, signedAt: createdAt, version: 3, ...v2 };
  const body =
    'to' in where
      ? {
          encryptedMessage: payload.encryptedMessage,
          iv: payload.iv,
          encryptedAESKeyForRecipient: payload.encryptedKeys[where.to._id],
          encryptedAESKeyForSender: payload.encryptedKeys[from._id],
          clientMessageId,
          signature,
        }
      : { ...payload, clientMessageId, signature };
  const res = await api.post(
    'to' in where
      ? `/api/v1/message/sendIndividualMessage/${where.to._id}`
      : `/api/v1/message/sendGroupMessage/${where.groupId}`,
    body,
    from.accessToken,
  );
  if (res.status !== 201) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  const message = res.body.data.message;
  return { messageId: message._id, chatId: message.chat, text, frankingKey: franking.key };
};
