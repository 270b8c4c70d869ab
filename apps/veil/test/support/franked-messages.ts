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
  clientMessageId: string;
}

type Where = { to: TestUser } | { groupId: string };

const chatRefOf = (from: TestUser, where: Where) =>
  'to' in where ? directChatRef(from._id, where.to._id) : where.groupId;

const ownHead = async (api: Api, from: SigningUser) =>
  (await api.get(`/api/v1/users/${from._id}/keyLog`, from.accessToken)).body.data.entries.at(-1)
    .hash as string;

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
  where: Where,
  /** Another key to sign with than the sender's own (a signature that does not hold). */
  signWith: CryptoKey = from.signing.privateKey,
): Promise<FrankedMessage> => {
  const franking = await frankText(text);
  const plaintext = encodeMessageContent({ text, attachments: [], franking: franking.key });
  const { payload, keyCommitment } = await sealGroupPayload(
    plaintext,
    Object.fromEntries(members.map((member) => [member._id, member.keys.publicKey])),
  );
  const clientMessageId = `franked-${Date.now().toString(36)}-${sent++}`;
  const createdAt = new Date().toISOString();
  const v2 = {
    keyCommitment,
    keyLogHeads: { [from._id]: await ownHead(api, from) },
    counter: sent,
    prev: null,
    franking: franking.tag,
  };
  const value = await signMessage(signWith, {
    ciphertext: payload.encryptedMessage,
    iv: payload.iv,
    chat: chatRefOf(from, where),
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
  return { messageId: message._id, chatId: message.chat, text, frankingKey: franking.key, clientMessageId };
};

/**
 * Edits a franked message as the web client does: the new text with a fresh franking key sealed
 * inside, its tag in a version 3 `edit` signature. `franked: false` edits as a client from before
 * edits carried a tag (version 2, no key inside). Resolves what a member who reports it reveals.
 */
export const editFranked = async (
  api: Api,
  from: SigningUser,
  members: TestUser[],
  message: FrankedMessage,
  text: string,
  where: Where,
  {
    franked = true,
    signWith = from.signing.privateKey,
  }: {
    franked?: boolean;
    /** Another key to sign with than the sender's own (a signature that does not hold). */
    signWith?: CryptoKey;
  } = {},
): Promise<FrankedMessage> => {
  const franking = await frankText(text);
  const plaintext = encodeMessageContent({
    text,
    attachments: [],
    ...(franked && { franking: franking.key }),
  });
  const { payload, keyCommitment } = await sealGroupPayload(
    plaintext,
    Object.fromEntries(members.map((member) => [member._id, member.keys.publicKey])),
  );
  const createdAt = new Date().toISOString();
  const v2 = {
    keyCommitment,
    keyLogHeads: { [from._id]: await ownHead(api, from) },
    counter: ++sent,
    prev: null,
    replaces: message.clientMessageId,
    ...(franked && { franking: franking.tag }),
  };
  const value = await signMessage(signWith, {
    kind: 'edit',
    target: message.messageId,
    chat: chatRefOf(from, where),
    senderId: from._id,
    createdAt,
    sealed: { ciphertext: payload.encryptedMessage, iv: payload.iv, encryptedKeys: payload.encryptedKeys },
    v2,
  });
  const res = await api.put(
    `/api/v1/message/${message.messageId}`,
    {
      encryptedMessage: payload.encryptedMessage,
      iv: payload.iv,
      encryptedKeys: payload.encryptedKeys,
      signature: { value, signedAt: createdAt, version: franked ? 3 : 2, ...v2 },
    },
    from.accessToken,
  );
  if (res.status !== 200) throw new Error(`edit failed: ${JSON.stringify(res.body)}`);
  return { ...message, text, frankingKey: franking.key };
};
