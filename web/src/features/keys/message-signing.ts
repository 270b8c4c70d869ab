import type { MessageSignature } from '@veil/contracts';
import {
  directChatRef,
  sealedFor,
  signMessage,
  type MessageActionKind,
  type SignatureSequence,
  type SignedMessage,
} from '@veil/crypto';
import { keyLogOf } from './key-logs.ts';
import { readSigningKeys } from './key-store.ts';
import { signatureTexts } from './signature-texts.ts';
import { takeNextSequence } from './signing-sequence-store.ts';

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
  sealed: {
    ciphertext: string;
    iv: string;
    encryptedKeys: Readonly<Record<string, string>>;
    /** The commitment to the message key (`keyCommitmentOf`), from sealing it. */
    keyCommitment: string;
    /** The franking tag of its text (`frankText`; the key is sealed inside): signed as version 3. */
    franking?: string;
  };
}

/**
 * The key-log head hash of the sender and of every member, from the checked logs (`keyLogOf`):
 * what the signature tells readers this browser saw. The sender's own log must check (its
 * signing key comes from it); a member whose log does not check here (the chat already warns of
 * it) is left out of the heads, so readers have nothing of theirs to compare for that member.
 */
const keyLogHeadsOf = async (
  senderId: string,
  memberIds: readonly string[],
): Promise<Record<string, string>> => {
  const ids = [...new Set([senderId, ...memberIds])];
  const heads = await Promise.all(
    ids.map(async (id) => {
      const log = await keyLogOf(senderId, id);
      const head = log.ok ? log.entries.at(-1)?.hash : undefined;
      if (!head && id === senderId) throw new Error(signatureTexts.keysNotChecked);
      return head ? [[id, head] as const] : [];
    }),
  );
  return Object.fromEntries(heads.flat());
};

/** The chat a signature names: the group, or the one-to-one chat of its two people. */
const chatRefOf = (m: Pick<Outgoing, 'chatId' | 'isGroupChat' | 'memberIds' | 'senderId'>): string => {
  const other = m.memberIds.find((id) => id !== m.senderId) ?? m.senderId;
  return m.isGroupChat ? m.chatId : directChatRef(m.senderId, other);
};

/**
 * What a version 2 signature object carries beside its value (`messageSignatureSchema`); with a
 * franking tag, version 3.
 */
const signatureObject = (
  value: string,
  signedAt: string,
  sequence: Omit<SignatureSequence, 'keyCommitment'> & {
    keyCommitment: string | null;
    replaces?: string | null;
  },
): MessageSignature => ({
  value,
  signedAt,
  ...(sequence.franking !== undefined ? { version: 3, franking: sequence.franking } : { version: 2 }),
  ...(sequence.keyCommitment !== null && { keyCommitment: sequence.keyCommitment }),
  keyLogHeads: { ...sequence.keyLogHeads },
  counter: sequence.counter,
  prev: sequence.prev,
  ...(sequence.replaces !== undefined && { replaces: sequence.replaces }),
});

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
  const chat = chatRefOf(message);
  const keyLogHeads = await keyLogHeadsOf(message.senderId, message.memberIds);
  const sequence = await takeNextSequence(message.senderId, chat, message.clientMessageId);
  const v2: SignatureSequence = {
    keyCommitment: message.sealed.keyCommitment,
    keyLogHeads,
    ...sequence,
    ...(message.sealed.franking !== undefined && { franking: message.sealed.franking }),
  };
  const signed: SignedMessage = {
    ciphertext: message.sealed.ciphertext,
    iv: message.sealed.iv,
    chat,
    senderId: message.senderId,
    clientMessageId: message.clientMessageId,
    replyTo: message.replyTo,
    createdAt: message.createdAt,
    encryptedKeys: message.sealed.encryptedKeys,
    v2,
  };
  return signatureObject(await signMessage(key, signed), message.createdAt, v2);
};

export interface OutgoingAction extends Pick<Outgoing, 'chatId' | 'isGroupChat' | 'memberIds' | 'senderId'> {
  kind: MessageActionKind;
  /** The message acted on. */
  target: string;
  createdAt: string;
  /** The new text or the emoji, sealed for the members; null for what seals nothing. */
  sealed: Outgoing['sealed'] | null;
  /**
   * An edit's replaced version: the message's client id for its first edit, else `editVersionOf`
   * the edit it replaces (null: not known, a message sent without a client id).
   */
  replaces?: string | null;
}

/**
 * Signs an edit, a deletion or a reaction, after the same check of who it is sealed for. An edit
 * with the franking tag of its new text is signed as version 3; no other action carries one.
 */
export const signOutgoingAction = async (action: OutgoingAction): Promise<MessageSignature | null> => {
  if (action.sealed) {
    const check = sealedFor(action.sealed.encryptedKeys, action.memberIds);
    if (check.missing.length || check.strangers.length) throw new Error(signatureTexts.refuseToSend);
  }
  const key = await currentSigningKey(action.senderId);
  if (!key) return null;
  const chat = chatRefOf(action);
  const keyLogHeads = await keyLogHeadsOf(action.senderId, action.memberIds);
  const sequence = await takeNextSequence(action.senderId, chat, null);
  const v2 = {
    keyCommitment: action.sealed?.keyCommitment ?? null,
    keyLogHeads,
    ...sequence,
    replaces: action.kind === 'edit' ? (action.replaces ?? null) : null,
    ...(action.kind === 'edit' &&
      action.sealed?.franking !== undefined && { franking: action.sealed.franking }),
  };
  const value = await signMessage(key, {
    kind: action.kind,
    target: action.target,
    chat,
    senderId: action.senderId,
    createdAt: action.createdAt,
    sealed: action.sealed && {
      ciphertext: action.sealed.ciphertext,
      iv: action.sealed.iv,
      encryptedKeys: action.sealed.encryptedKeys,
    },
    v2,
  });
  return signatureObject(value, action.createdAt, v2);
};
