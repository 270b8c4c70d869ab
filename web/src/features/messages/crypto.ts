import { callRecordText } from './call-record-text.ts';
import type { MessageSignature, MessageView, SealedReaction } from '@veil/contracts';
import {
  decodeMessageContent,
  frankingHolds,
  sealGroupPayload,
  sealIndividualPayload,
  readMessage,
  type GroupPayload,
  type IndividualPayload,
  type Padding,
} from '@veil/crypto';
import {
  accountKeyRing,
  publishedAccountKey,
  commitmentHolds,
  shownSignatureOf,
  verifyMessage,
  verifyReaction,
  type ChatContext,
  type Verification,
  checkedEncryptionKey,
  checkedEncryptionKeys,
  readStateTexts,
  unreadableState,
  unverifiedDeletionText,
  unverifiedText,
} from '../keys/index.ts';
import type { DisplayMessage } from './display-message.ts';

/**
 * The web client's use of @veil/crypto: which keys to use for what. No cryptography is written
 * here; it all lives in packages/crypto.
 */

/**
 * Ciphertext with its iv and wrapped keys: a message's text, an edit, a reaction; a message may
 * also carry its members' own key copies re-wrapped after a key reset.
 */
export type Sealed = Pick<MessageView, 'content' | 'iv' | 'encryptedKeys' | 'rewrappedKeys'>;

/**
 * A payload and, beside it, the commitment to its message key, which the signature covers and
 * the server is not sent apart from it (`withoutCommitment`).
 */
export type WithCommitment<Payload> = Payload & { keyCommitment: string };

export const withoutCommitment = <Payload>({ keyCommitment: _sent, ...payload }: WithCommitment<Payload>) =>
  payload;

/**
 * Builds the one-to-one send payload: the message key wrapped for the recipient and for the
 * sender, each for the key their checked key log names (`checked-keys.ts`); a log that does not
 * check out throws `KeysUncheckedError` and nothing is sealed.
 */
export const encryptForIndividual = async (
  text: string,
  senderId: string,
  recipientId: string,
  replyTo?: string,
  padding: Padding = 'message',
): Promise<WithCommitment<IndividualPayload>> => {
  const [recipientKey, senderKey] = await Promise.all([
    checkedEncryptionKey(senderId, recipientId),
    checkedEncryptionKey(senderId, senderId),
  ]);
  const { payload, keyCommitment } = await sealIndividualPayload(
    text,
    { recipientId, recipientKey, senderId, senderKey },
    replyTo,
    padding,
  );
  return { ...payload, keyCommitment };
};

/**
 * Builds the group send payload: the message key wrapped for every member (the sender
 * included), each for the key their checked key log names.
 */
export const encryptForGroup = async (
  text: string,
  senderId: string,
  memberIds: readonly string[],
  replyTo?: string,
  padding: Padding = 'message',
): Promise<WithCommitment<GroupPayload>> => {
  const { payload, keyCommitment } = await sealGroupPayload(
    text,
    await checkedEncryptionKeys(senderId, [...new Set(memberIds)]),
    replyTo,
    padding,
  );
  return { ...payload, keyCommitment };
};

/**
 * Sealed text for `userId`, or why it cannot be read in this browser. `sentAt` tells a key
 * reset apart from a missing key.
 */
export const readSealedForUser = async (
  sealed: Sealed,
  sentAt: string,
  userId: string,
): Promise<
  Pick<
    DisplayMessage,
    'decryptedContent' | 'readState' | 'attachments' | 'forwarded' | 'frankingKey' | 'call' | 'mentions'
  > & {
    /** The commitment to the key this reader unwrapped (`keyCommitmentOf`), when it read it. */
    keyCommitment?: string;
  }
> => {
  const keys = await accountKeyRing(userId);
  const envelope = { content: sealed.content, iv: sealed.iv, encryptedKeys: sealed.encryptedKeys };
  const privateKeys = keys.map((key) => key.privateKey);
  let reading = await readMessage(envelope, userId, privateKeys);
  // Sealed for a key from before a reset: a browser that kept that key may have left a copy.
  const copy = sealed.rewrappedKeys?.[userId];
  if (!reading.ok && reading.failure === 'no-key-fits' && copy)
    reading = await readMessage({ ...envelope, encryptedKeys: { [userId]: copy } }, userId, privateKeys);
  if (reading.ok) {
    const { text, attachments, forwarded, franking, call, mentions } = decodeMessageContent(reading.text);
    return {
      // A call's entry reads as what it says, in this reader's language, everywhere text is shown.
      decryptedContent: call ? callRecordText(call, userId) : text,
      ...(call && { call }),
      readState: 'read',
      keyCommitment: reading.keyCommitment,
      ...(attachments.length && { attachments }),
      ...(forwarded && { forwarded: true as const }),
      ...(franking && { frankingKey: franking }),
      // A call's entry shows its own text, which the ranges were not counted over.
      ...(mentions && !call && { mentions }),
    };
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
  /** Whether a reaction is its member's (its signature holds); none given: every one counts. */
  isGenuine: (reactor: string, reaction: SealedReaction) => Promise<boolean> = () => Promise.resolve(true),
): Promise<Record<string, string>> => {
  const read = await Promise.all(
    Object.entries(reactions ?? {}).map(async ([reactor, sealed]) => {
      const [{ decryptedContent, readState, keyCommitment }, genuine] = await Promise.all([
        readSealedForUser(sealed, '', userId),
        isGenuine(reactor, sealed),
      ]);
      // A reaction whose key is not the one its signature commits to counts as not its member's.
      const committed = commitmentHolds(sealed.signature, keyCommitment);
      return readState === 'read' && genuine && committed ? [[reactor, decryptedContent] as const] : [];
    }),
  );
  return Object.fromEntries(read.flat());
};

/**
 * Whether what is shown, signed with a franking tag (version 3: the message as sent, or its last
 * edit), carries the key that gives that tag for the text read here, so a report of it will
 * verify (docs/crypto.md, "Message franking"). `signature` is the one that vouches for the text
 * shown (`shownSignatureOf`).
 */
export const frankingFits = async (
  signature: MessageSignature | undefined,
  read: Pick<DisplayMessage, 'decryptedContent' | 'readState' | 'frankingKey' | 'call'>,
): Promise<boolean> => {
  const tag = signature?.version === 3 ? signature.franking : undefined;
  if (!tag || read.readState !== 'read') return true;
  // A call's entry is sent with no text (what it shows is written from the call): that is what it franks.
  const franked = read.call ? '' : read.decryptedContent;
  return Boolean(read.frankingKey) && frankingHolds(franked, read.frankingKey!, tag);
};

/**
 * A signature that verified, held to what was read here: over a key other than the one unwrapped
 * here it fails as two-faced (`key-commitment`); over a franking tag the text and franking key
 * inside do not give (unless `franked` is false: a deletion keeps no text), as made unreportable
 * (`franking`). Any other verification is returned as it came.
 */
export const heldToWhatWasRead = async (
  checked: Verification | undefined,
  signature: MessageSignature | undefined,
  keyCommitment: string | undefined,
  read: Parameters<typeof frankingFits>[1],
  { franked = true } = {},
): Promise<Verification | undefined> => {
  if (checked?.status !== 'verified') return checked;
  if (!commitmentHolds(signature, keyCommitment)) return { status: 'failed', reason: 'key-commitment' };
  if (franked && !(await frankingFits(signature, read))) return { status: 'failed', reason: 'franking' };
  return checked;
};

/**
 * Decrypts a message (and the message it replies to) for `userId` with the account's keys in this
 * browser. Given where it is shown (`context`), it is verified too, and a message whose signature
 * does not hold shows why instead of its text (and without its files).
 */
export const decryptForUser = async (
  message: MessageView,
  userId: string,
  context?: ChatContext,
): Promise<DisplayMessage> => {
  // A message deleted for everyone has no ciphertext left: nothing to read.
  const [{ keyCommitment, ...read }, replyTo, reactionTexts, checked] = await Promise.all([
    message.deleted
      ? { decryptedContent: '', readState: 'read' as const, keyCommitment: undefined }
      : readSealedForUser(message, message.createdAt, userId),
    message.replyTo ? decryptForUser({ ...message.replyTo, replyTo: null }, userId) : Promise.resolve(null),
    readReactionsForUser(
      message.reactions,
      userId,
      context && ((reactor, reaction) => verifyReaction(message, reactor, reaction, context, userId)),
    ),
    context ? verifyMessage(message, context, userId) : undefined,
  ]);
  // A two-faced message, or one its sender made unreportable, fails however well its signature holds.
  const verification = await heldToWhatWasRead(checked, shownSignatureOf(message), keyCommitment, read, {
    franked: !message.deleted,
  });
  const shown =
    verification?.status === 'failed'
      ? {
          decryptedContent: (message.deleted ? unverifiedDeletionText : unverifiedText)(verification.reason),
          readState: 'unverified' as const,
        }
      : read;
  return {
    ...message,
    seenBy: { ...message.seenBy },
    ...shown,
    replyTo,
    reactionTexts,
    ...(verification && { verification }),
  };
};

export const decryptAllForUser = (
  messages: readonly MessageView[],
  userId: string,
  context?: ChatContext,
): Promise<DisplayMessage[]> =>
  Promise.all(messages.map((message) => decryptForUser(message, userId, context)));
