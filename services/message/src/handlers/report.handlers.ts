import {
  DomainError,
  reportStreamId,
  userRpc,
  type EventData,
  type ReportedMessage,
  type RevealedMessage,
  type reportOperations,
} from '@veil/contracts';
import {
  checkMessageSignature,
  directChatRef,
  frankingHolds,
  type KeyLogEntry,
  type Signed,
} from '@veil/crypto';
import { newEvent, rpcClient, type RpcImplementation, type RunningProjection } from '@veil/kernel';
import type { Logger, MessageTimeline, Ports } from '@veil/ports';
import type { MembershipDoc, MessageDoc, MessageReadModels } from '../projections/timeline.projection.ts';
import { reportViewOf, type ReportModels } from '../projections/reports.projection.ts';

type Deps = Pick<Ports, 'clock' | 'ids' | 'rpc'> & {
  store: Ports['bus'];
  models: MessageReadModels & ReportModels;
  messages: MessageTimeline;
  /** The timeline (messages and membership) and the reports' projections. */
  timeline: RunningProjection;
  reports: RunningProjection;
  log: Logger;
};

const notFound = () => new DomainError('MESSAGE_NOT_FOUND', 'Message not found');
const notVerified = (why: string) => new DomainError('REPORT_NOT_VERIFIED', why);

/**
 * Whether the reporter could read this message: it was sealed for them, in a chat they are a
 * member of (or were, until an admin removed them after it was sent). Anything else answers as
 * a missing message, so a report cannot probe for messages.
 */
const readableBy = (doc: MessageDoc, membership: MembershipDoc, reporterId: string): boolean => {
  if (!doc.encryptedKeys[reporterId]) return false;
  if (membership.members.includes(reporterId)) return true;
  const removedAt = membership.removedAt?.[reporterId];
  return Boolean(removedAt && doc.createdAt < removedAt);
};

/**
 * The version 3 signature that vouches for a message's text now, with the tag it signed, the form
 * it signed and the time whose key must have signed it: the last edit's (an `edit` action, the
 * key of the edit's time), or the message's own. Null: that signature carries no franking tag.
 */
const frankedSignatureOf = (
  doc: MessageDoc,
  membership: MembershipDoc,
): { tag: string; value: string; keyTime: string; signed: Signed } | null => {
  const signature = doc.editedAt ? doc.editSignature : doc.signature;
  if (signature?.version !== 3 || !signature.franking) return null;
  const other = membership.members.find((id) => id !== doc.sender) ?? doc.sender;
  const chat = membership.isGroupChat ? doc.chat : directChatRef(doc.sender, other);
  const sequence = {
    keyCommitment: signature.keyCommitment ?? '',
    keyLogHeads: signature.keyLogHeads ?? {},
    counter: signature.counter ?? 0,
    prev: signature.prev ?? null,
    franking: signature.franking,
  };
  const franked = { tag: signature.franking, value: signature.value };
  if (doc.editedAt)
    return {
      ...franked,
      keyTime: doc.editedAt,
      signed: {
        kind: 'edit',
        target: doc._id,
        chat,
        senderId: doc.sender,
        createdAt: signature.signedAt,
        sealed: { ciphertext: doc.content, iv: doc.iv, encryptedKeys: doc.encryptedKeys },
        v2: { ...sequence, replaces: signature.replaces ?? null },
      },
    };
  if (!doc.clientMessageId) return null;
  return {
    ...franked,
    keyTime: doc.createdAt,
    signed: {
      ciphertext: doc.content,
      iv: doc.iv,
      chat,
      senderId: doc.sender,
      clientMessageId: doc.clientMessageId,
      replyTo: doc.replyTo,
      createdAt: signature.signedAt,
      encryptedKeys: doc.encryptedKeys,
      v2: sequence,
    },
  };
};

/**
 * Reports of abuse the server can verify (docs/crypto.md, "Message franking"). The reporter
 * reveals a message's text and its franking key (of its last edit, for an edited message); the
 * server recomputes the franking tag, compares it with the tag the sender signed, and checks the
 * sender's signature over it with the key the sender's key log names at the message's (or the
 * edit's) time. Only then is the text recorded, for operators.
 */
export const reportHandlers = (deps: Deps): RpcImplementation<typeof reportOperations> => {
  const { store, models } = deps;
  const users = rpcClient(deps.rpc, userRpc);

  const signatureHolds = async (
    sender: string,
    { keyTime, signed, value }: NonNullable<ReturnType<typeof frankedSignatureOf>>,
  ): Promise<boolean> => {
    const { entries } = await users.keyLog({ userId: sender });
    const verdict = await checkMessageSignature(entries as KeyLogEntry[], keyTime, signed, value);
    return verdict.status === 'verified';
  };

  /** One revealed message, checked against what its sender signed; its record in the report. */
  const verified = async (
    doc: MessageDoc,
    membership: MembershipDoc,
    revealed: Omit<RevealedMessage, 'messageId'>,
  ): Promise<ReportedMessage> => {
    if (doc.deleted) throw new DomainError('NOT_REPORTABLE', 'A deleted message cannot be reported');
    const franked = frankedSignatureOf(doc, membership);
    if (!franked)
      throw new DomainError(
        'NOT_REPORTABLE',
        doc.editedAt
          ? 'This message was edited without a franking tag, so its text cannot be verified'
          : 'This message was sent without a franking tag, so its text cannot be verified',
      );
    if (!(await frankingHolds(revealed.text, revealed.frankingKey, franked.tag)))
      throw notVerified('The reported text and franking key do not match the franking tag its sender signed');
    if (!(await signatureHolds(doc.sender, franked)))
      throw notVerified("The message's signature does not hold for its sender's key");
    return {
      messageId: doc._id,
      senderId: doc.sender,
      text: revealed.text,
      sentAt: doc.createdAt,
      ...(doc.editedAt && { editedAt: doc.editedAt }),
    };
  };

  return {
    async report({ reporterId, messageId, text, frankingKey, earlier, reason }) {
      const target = await deps.timeline.readFresh('message', () => deps.messages.get(messageId), Boolean);
      const membership = target && (await models.memberships.get(target.chat));
      if (!target || !membership || !readableBy(target, membership, reporterId)) throw notFound();
      if (target.sender === reporterId)
        throw new DomainError('VALIDATION_FAILED', 'You cannot report your own message');
      const earlierIds = earlier.map((m) => m.messageId);
      if (new Set([...earlierIds, messageId]).size !== earlierIds.length + 1)
        throw new DomainError('VALIDATION_FAILED', 'Each message may be reported once per report');
      const earlierDocs = await deps.messages.getMany(earlierIds);
      const byId = new Map(earlierDocs.map((doc) => [doc._id, doc]));
      const context = earlier.map((revealed) => {
        const doc = byId.get(revealed.messageId);
        // Earlier messages come from the same chat, from before the reported one, and were the reporter's to read.
        if (!doc || doc.chat !== target.chat || !readableBy(doc, membership, reporterId)) throw notFound();
        if (doc.seq >= target.seq)
          throw new DomainError('VALIDATION_FAILED', 'Earlier messages must come before the reported one');
        return { doc, revealed };
      });
      context.sort((a, b) => a.doc.seq - b.doc.seq);
      const messages = [
        ...(await Promise.all(context.map(({ doc, revealed }) => verified(doc, membership, revealed)))),
        await verified(target, membership, { text, frankingKey }),
      ];
      const data: EventData<'ReportFiled'> = {
        reportId: deps.ids.next(),
        reporterId,
        chatId: target.chat,
        accusedId: target.sender,
        messageId,
        messages,
        reason,
      };
      const { position } = await store.append(
        'report',
        newEvent(deps, 'ReportFiled', reportStreamId(data.reportId), data),
      );
      await deps.reports.waitFor('report', position);
      deps.log.info(
        {
          audit: 'report-filed',
          reportId: data.reportId,
          reporterId,
          accusedId: data.accusedId,
          messages: messages.length,
        },
        'report filed',
      );
      const doc = await models.reports.get(data.reportId);
      return { report: reportViewOf(doc!) };
    },

    async reports({ status }) {
      const docs = await models.reports.find(
        { open: status === 'open' },
        { sort: { filedAt: -1 }, limit: 200 },
      );
      return { reports: docs.map(reportViewOf) };
    },

    async closeReport({ reportId, closedBy, outcome }) {
      // The report's own stream decides: one close wins, a second operator's is told so.
      const { events, version } = await store.readStream('report', reportStreamId(reportId));
      if (!events.length) throw new DomainError('NOT_FOUND', 'Report not found');
      if (events.length > 1) throw new DomainError('VERSION_CONFLICT', 'This report is already closed');
      const { position } = await store.append(
        'report',
        newEvent(deps, 'ReportClosed', reportStreamId(reportId), { reportId, closedBy, outcome }),
        { expectedVersion: version },
      );
      await deps.reports.waitFor('report', position);
      deps.log.info({ audit: 'report-closed', reportId, closedBy, outcome }, 'report closed');
      return { report: reportViewOf((await models.reports.get(reportId))!) };
    },
  };
};
