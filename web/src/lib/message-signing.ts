import type { MessageSignature } from '@veil/contracts';
import {
  directChatRef,
  sealedFor,
  signMessage,
  type MessageActionKind,
  type SignedMessage,
} from '@veil/crypto';
import { keyLogOf } from './key-logs.ts';
import { readSigningKeys } from './key-store.ts';
import { signatureTexts } from './signature-texts.ts';

/**
 * Signing what this browser sends, with the account's signing key as its key log names it now
 * (the key readers will check it against). An account without a signing key yet sends unsigned,
 * as before signatures; one whose key this browser does not hold refuses to send, since its
 * readers would see an unsigned message as a forgery.
 */
export const currentSigningKey = async (userId: string): Promise<CryptoKey | null> => {
  let log = await keyLogOf(userId, userId);
  // No signing key yet: one may have been published since (at this login), so ask again.
  if (log.ok && !log.current.signingKey) log = await keyLogOf(userId, userId, new Date().toISOString());
  if (!log.ok) throw new Error(`Your key log could not be checked (${log.problem})`);
  const published = log.current.signingKey;
  if (!published) return null;
  const held = (await readSigningKeys(userId)).find((key) => key.publicKey === published);
  if (!held) throw new Error(signatureTexts.noSigningKeyHere);
  return held.privateKey;
};

export interface Outgoing {
  chatId: string;
  isGroupChat: boolean;
  /** Every member it must be sealed for, the sender included. */
  memberIds: readonly string[];
  senderId: string;
  clientMessageId: string;
  replyTo: string | null;
  /** When the user wrote it: fixed across every attempt to send it. */
  createdAt: string;
  sealed: { ciphertext: string; iv: string; encryptedKeys: Readonly<Record<string, string>> };
}

/**
 * Checks that a message is sealed for exactly the chat's members (the sender's browser refuses to
 * send one that is not), then signs it; resolves the signature, or null for an account without
 * a signing key.
 */
export const signOutgoing = async (message: Outgoing): Promise<MessageSignature | null> => {
  const check = sealedFor(message.sealed.encryptedKeys, message.memberIds);
  if (check.missing.length || check.strangers.length) throw new Error(signatureTexts.refuseToSend);
  const key = await currentSigningKey(message.senderId);
  if (!key) return null;
  const other = message.memberIds.find((id) => id !== message.senderId) ?? message.senderId;
  const signed: SignedMessage = {
    ...message.sealed,
    chat: message.isGroupChat ? message.chatId : directChatRef(message.senderId, other),
    senderId: message.senderId,
    clientMessageId: message.clientMessageId,
    replyTo: message.replyTo,
    createdAt: message.createdAt,
    encryptedKeys: message.sealed.encryptedKeys,
  };
  return { value: await signMessage(key, signed), signedAt: message.createdAt };
};

export interface OutgoingAction extends Pick<Outgoing, 'chatId' | 'isGroupChat' | 'memberIds' | 'senderId'> {
  kind: MessageActionKind;
  /** The message acted on. */
  target: string;
  createdAt: string;
  /** The new text or the emoji, sealed for the members; null for what seals nothing. */
  sealed: Outgoing['sealed'] | null;
}

/** Signs an edit, a deletion or a reaction, after the same check of who it is sealed for. */
export const signOutgoingAction = async (action: OutgoingAction): Promise<MessageSignature | null> => {
  if (action.sealed) {
    const check = sealedFor(action.sealed.encryptedKeys, action.memberIds);
    if (check.missing.length || check.strangers.length) throw new Error(signatureTexts.refuseToSend);
  }
  const key = await currentSigningKey(action.senderId);
  if (!key) return null;
  const other = action.memberIds.find((id) => id !== action.senderId) ?? action.senderId;
  const value = await signMessage(key, {
    kind: action.kind,
    target: action.target,
    chat: action.isGroupChat ? action.chatId : directChatRef(action.senderId, other),
    senderId: action.senderId,
    createdAt: action.createdAt,
    sealed: action.sealed,
  });
  return { value, signedAt: action.createdAt };
};
