import type { GroupNotice, MessageSignature, MessageView, SealedReaction } from '@veil/contracts';
import {
  checkMessageSignature,
  directChatRef,
  sealedFor,
  type Signed,
  type SignatureFailure,
  type SignedKeys,
} from '@veil/crypto';
import { splitViewsOf, type SplitView } from './key-log-heads.ts';
import { keyLogOf } from './key-logs.ts';
import { legacyOnlyBeforeSignedLog } from './legacy-messages.ts';
import { actionSequenceOf, sequenceOf } from './signature-fields.ts';
import { observeOwnCounter } from './signing-sequence-store.ts';

export { commitmentHolds } from './signature-fields.ts';

/**
 * Where a message is shown, as the reader knows it (not as the message claims): what its
 * signature must name, and who it must be sealed for.
 */
export interface ChatContext {
  chatId: string;
  isGroupChat: boolean;
  /** Every current member, the reader included. */
  memberIds: readonly string[];
  /** A group's changes, oldest first, to know who was a member when a message was sent. */
  notices?: readonly GroupNotice[];
  /**
   * A signed group's members after each verified change, oldest first (`group-chain.ts`): from
   * its first change on, who was a member is what these say, never the server's notices.
   */
  membership?: readonly { at: string; members: readonly string[] }[];
}

/** Who a message was sealed for, against who was a member then (null: not known that far back). */
export interface SealedFor {
  sealed: string[];
  members: string[] | null;
  missing: string[];
  strangers: string[];
}

/**
 * Beside a signature's own reasons: the sender's key log could not be fetched or checked, or the
 * key this reader unwrapped is not the one the signature commits to (`key-commitment`: the
 * sender wrapped different keys for different readers around one ciphertext).
 */
export type VerificationFailure =
  | SignatureFailure
  | 'key-log-unavailable'
  | 'key-log-broken'
  | 'key-commitment'
  /** A version 3 signature whose franking tag the text and franking key inside do not give. */
  | 'franking'
  /** An edit older (by its sender's counter) than the edit this reader already shows. */
  | 'rolled-back';

/** Whether an incoming edit's signature is older than that of the edit shown now (both version 2). */
export const isOlderEdit = (
  incoming: MessageSignature | undefined,
  shown: MessageSignature | undefined,
): boolean =>
  incoming?.version !== undefined &&
  shown?.version !== undefined &&
  (incoming.counter ?? 0) <= (shown.counter ?? 0) &&
  incoming.value !== shown.value;

/**
 * A message's signature as checked here: `verified` (by its sender, for this chat and these
 * readers), `legacy` (sent before its sender had a signing key), or `failed` with the reason;
 * `own` for the copy this browser made itself while sending. Who it was sealed for is checked
 * apart (`sealedForAt`), against the chat as it is now known, so a membership change that
 * arrives later corrects it.
 */
export type Verification =
  | { status: 'legacy' | 'own' }
  /**
   * `splitViews`: members whose key-log head, as the signature names it, is no entry of the log
   * this reader sees (`key-log-heads.ts`); absent: none.
   */
  | { status: 'verified'; splitViews?: SplitView[] }
  | { status: 'failed'; reason: VerificationFailure };

/**
 * Who was a member when `at` was: the current members with the group's later changes undone
 * (added: not yet members; removed or left: still members). Null when the kept changes do not
 * reach back that far (the group's creation is not among them and the oldest is later). A
 * signed group answers from its verified membership, and before its first signed change from
 * the state that change signed, with the notices before it undone.
 */
export const membersAt = (context: ChatContext, at: string): string[] | null => {
  if (!context.isGroupChat) return [...new Set(context.memberIds)];
  const signed = context.membership ?? [];
  const first = signed[0];
  if (!first) return undoNotices(context.memberIds, context.notices ?? [], at);
  const held = signed.filter((state) => state.at <= at).at(-1);
  if (held) return [...held.members];
  return undoNotices(
    first.members,
    (context.notices ?? []).filter((notice) => notice.at < first.at),
    at,
  );
};

const undoNotices = (
  now: readonly string[],
  notices: readonly GroupNotice[],
  at: string,
): string[] | null => {
  const members = new Set(now);
  const oldest = notices[0];
  const complete =
    notices.some((notice) => notice.kind === 'created') || (oldest !== undefined && oldest.at <= at);
  if (!complete) return null;
  for (const notice of [...notices].reverse()) {
    if (notice.at <= at) break;
    if (notice.kind === 'added') for (const m of notice.members) members.delete(m._id);
    if (notice.kind === 'removed') for (const m of notice.members) members.add(m._id);
    if (notice.kind === 'left') members.add(notice.by._id);
  }
  return [...members];
};

export const sealedForAt = (
  message: Pick<MessageView, 'encryptedKeys' | 'createdAt'>,
  context: ChatContext,
): SealedFor => {
  const members = membersAt(context, message.createdAt);
  const checked = sealedFor(message.encryptedKeys, members ?? Object.keys(message.encryptedKeys));
  return { ...checked, members };
};

/** Whether a key map leaves out a member or names someone who was not one. */
export const sealedWrongly = (sealed: SealedFor): boolean =>
  sealed.missing.length > 0 || sealed.strangers.length > 0;

/** What checking a message reads of it (a history's message, or one as the screen holds it). */
export type VerifiableMessage = Pick<
  MessageView,
  | '_id'
  | 'chat'
  | 'sender'
  | 'content'
  | 'iv'
  | 'encryptedKeys'
  | 'keyMap'
  | 'createdAt'
  | 'signature'
  | 'clientMessageId'
  | 'editedAt'
  | 'editSignature'
  | 'deleted'
  | 'deleteSignature'
> & { replyTo: { _id: string } | null };

/** The chat a signature must name: the group, or the one-to-one chat of its sender and the other member. */
const chatRefFor = (sender: string, context: ChatContext): string | null => {
  if (context.isGroupChat) return context.chatId;
  const other = context.memberIds.find((id) => id !== sender);
  return other ? directChatRef(sender, other) : null;
};

/**
 * The key map a signature is checked against: the one served, or, when the reader was served
 * only its own key (the chat list's newest message), the summary of the whole map that came
 * with it, which must name the reader. Null: a summary that leaves the reader out.
 */
const keysAsShown = (message: VerifiableMessage, reader: string): SignedKeys | null => {
  const ownKeyOnly = Object.keys(message.encryptedKeys).every((id) => id === reader);
  if (!message.keyMap || !ownKeyOnly) return message.encryptedKeys;
  return message.keyMap.members.includes(reader) ? message.keyMap : null;
};

const withV2 = <T extends object, V>(signed: T, v2: V | undefined): T & { v2?: V } =>
  v2 ? { ...signed, v2 } : signed;

/**
 * The signed form of a message as it appears here: the chat, sender and readers where it is
 * shown. An edited message's text is its last edit's, signed as an action on the message.
 */
const signedAsShown = (message: VerifiableMessage, context: ChatContext, reader: string): Signed | null => {
  const sender = message.sender._id;
  const chat = chatRefFor(sender, context);
  if (!chat) return null;
  if (message.deleted)
    return withV2(
      {
        kind: 'delete' as const,
        target: message._id,
        chat,
        senderId: sender,
        createdAt: message.deleteSignature?.signedAt ?? '',
        sealed: null,
      },
      actionSequenceOf(message.deleteSignature),
    );
  const encryptedKeys = keysAsShown(message, reader);
  if (!encryptedKeys) return null;
  if (message.editedAt)
    return withV2(
      {
        kind: 'edit' as const,
        target: message._id,
        chat,
        senderId: sender,
        createdAt: message.editSignature?.signedAt ?? '',
        sealed: { ciphertext: message.content, iv: message.iv, encryptedKeys },
      },
      actionSequenceOf(message.editSignature),
    );
  return withV2(
    {
      ciphertext: message.content,
      iv: message.iv,
      chat,
      senderId: sender,
      clientMessageId: message.clientMessageId ?? '',
      replyTo: message.replyTo?._id ?? null,
      createdAt: message.signature?.signedAt ?? '',
      encryptedKeys,
    },
    sequenceOf(message.signature),
  );
};

/** The signature that vouches for what is shown: the deletion's, the last edit's, or the message's. */
export const shownSignatureOf = (
  message: Pick<
    VerifiableMessage,
    'deleted' | 'editedAt' | 'signature' | 'editSignature' | 'deleteSignature'
  >,
): MessageSignature | undefined =>
  message.deleted ? message.deleteSignature : message.editedAt ? message.editSignature : message.signature;

/**
 * After a signature holds: the split views its heads show this reader, and, for the reader's
 * own messages signed in another of its browsers, this browser's counter moved past them.
 */
const afterVerified = async (
  message: VerifiableMessage,
  signed: Signed,
  accountId: string,
): Promise<Verification> => {
  const signature = shownSignatureOf(message);
  if (signature?.version === undefined) return { status: 'verified' };
  if (message.sender._id === accountId && signature.counter)
    observeOwnCounter(accountId, signed.chat, {
      counter: signature.counter,
      clientMessageId: 'kind' in signed ? null : (message.clientMessageId ?? null),
    }).catch((error: unknown) => console.warn('Could not keep the signing counter', error));
  const splitViews = await splitViewsOf(accountId, signature.keyLogHeads ?? {});
  return splitViews.length ? { status: 'verified', splitViews } : { status: 'verified' };
};

/**
 * When the key that should have signed what is shown was the sender's, and that signature: an
 * edit's own time; a deletion's signature time, never earlier than the message (the tombstone
 * keeps no time of the deletion); else the message's.
 */
const keyTimeAndSignature = (message: VerifiableMessage): [string, string | undefined] => {
  if (message.deleted) {
    const signedAt = message.deleteSignature?.signedAt ?? '';
    return [signedAt > message.createdAt ? signedAt : message.createdAt, message.deleteSignature?.value];
  }
  if (message.editedAt) return [message.editedAt, message.editSignature?.value];
  return [message.createdAt, message.signature?.value];
};

/**
 * Checks a message's signature against its sender's key log, as the log says the key was when
 * the message was stored; unsigned, it is history only if stored before the log's first signed
 * entry (`legacyOnlyBeforeSignedLog`). `accountId` is the reader. The sender's log is fetched once per page;
 * after a failure, once more if the message is newer than that fetch (its sender may have
 * changed keys since).
 */
export const verifyMessage = async (
  message: VerifiableMessage,
  context: ChatContext,
  accountId: string,
): Promise<Verification> => {
  const signed = signedAsShown(message, context, accountId);
  // A message shown in a chat it does not belong to, a one-to-one chat with nobody else, or a
  // key map's summary that leaves the reader out.
  if (!signed || message.chat !== context.chatId) return { status: 'failed', reason: 'bad-signature' };
  const check = async (newerThan?: string): Promise<Verification> => {
    const log = await keyLogOf(accountId, message.sender._id, newerThan);
    if (!log.ok)
      return {
        status: 'failed',
        reason: log.problem === 'unavailable' ? 'key-log-unavailable' : 'key-log-broken',
      };
    const [at, signature] = keyTimeAndSignature(message);
    const verdict = legacyOnlyBeforeSignedLog(
      log.entries,
      at,
      await checkMessageSignature(log.entries, at, signed, signature),
    );
    if (verdict.status === 'failed') return verdict;
    return verdict.status === 'verified'
      ? afterVerified(message, signed, accountId)
      : { status: verdict.status };
  };
  const first = await check();
  return first.status === 'failed' && first.reason !== 'key-log-unavailable'
    ? check(message.editedAt ?? message.createdAt)
    : first;
};

/**
 * Whether a member's reaction is theirs: signed as a `reaction` on this message, in this chat,
 * checked against their key log. The key is the one of the signature's time, but never earlier
 * than the message (a reaction cannot predate it); an unsigned reaction counts as from before
 * signatures only if its member had no signing key when the message was sent. A reaction that
 * fails is left out, as an unreadable one is.
 */
export const verifyReaction = (
  message: Pick<MessageView, '_id' | 'createdAt'>,
  reactor: string,
  reaction: SealedReaction,
  context: ChatContext,
  accountId: string,
): Promise<boolean> =>
  verifyReactionAction(message, reactor, 'reaction', reaction.signature, context, accountId, {
    ciphertext: reaction.content,
    iv: reaction.iv,
    encryptedKeys: reaction.encryptedKeys,
  });

/**
 * Whether taking a reaction back is its member's: signed as a `reaction-removal` on this message,
 * by the same rules as a reaction. A removal that does not hold is ignored: the reaction stays.
 */
export const verifyReactionRemoval = (
  message: Pick<MessageView, '_id' | 'createdAt'>,
  reactor: string,
  signature: MessageSignature | undefined,
  context: ChatContext,
  accountId: string,
): Promise<boolean> =>
  verifyReactionAction(message, reactor, 'reaction-removal', signature, context, accountId, null);

const verifyReactionAction = async (
  message: Pick<MessageView, '_id' | 'createdAt'>,
  reactor: string,
  kind: 'reaction' | 'reaction-removal',
  signature: MessageSignature | undefined,
  context: ChatContext,
  accountId: string,
  sealed: { ciphertext: string; iv: string; encryptedKeys: Record<string, string> } | null,
): Promise<boolean> => {
  const chat = chatRefFor(reactor, context);
  if (!chat) return false;
  const log = await keyLogOf(accountId, reactor);
  if (!log.ok) return false;
  const signedAt = signature?.signedAt ?? '';
  const at = signedAt > message.createdAt ? signedAt : message.createdAt;
  const verdict = legacyOnlyBeforeSignedLog(
    log.entries,
    at,
    await checkMessageSignature(
      log.entries,
      at,
      withV2(
        { kind, target: message._id, chat, senderId: reactor, createdAt: signedAt, sealed },
        actionSequenceOf(signature),
      ),
      signature?.value,
    ),
  );
  return verdict.status !== 'failed';
};
