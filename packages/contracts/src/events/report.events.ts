import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/** Why a member reports a message, as the report form offers it. */
export const reportReasonSchema = z.enum(['harassment', 'spam', 'threat', 'other'], {
  error: 'reason must be harassment, spam, threat or other',
});
export type ReportReason = z.infer<typeof reportReasonSchema>;

/**
 * One reported message as the server verified it: its text (checked against the franking tag
 * its sender signed, docs/crypto.md, "Message franking"), who sent it and when it was stored;
 * `editedAt`: the text is its last edit's (checked against that edit's tag), stored then.
 */
export const reportedMessageSchema = z.object({
  messageId: idSchema,
  senderId: idSchema,
  text: z.string(),
  sentAt: z.iso.datetime(),
  editedAt: z.iso.datetime().optional(),
});
export type ReportedMessage = z.infer<typeof reportedMessageSchema>;

/**
 * The report context, owned by the message service (which holds the ciphertexts and signatures
 * a report is checked against). Stream `report-<reportId>`: one report, filed by a member with
 * the verified text of the reported message and of the few before it that the member chose to
 * send, then closed by an operator.
 */
export const ReportFiled = defineEvent(
  'ReportFiled',
  z.object({
    reportId: idSchema,
    reporterId: idSchema,
    chatId: idSchema,
    /** The sender of the reported message: the account the report is about. */
    accusedId: idSchema,
    /** The reported message; `messages` holds it last, after the earlier ones, oldest first. */
    messageId: idSchema,
    messages: z.array(reportedMessageSchema).min(1),
    reason: reportReasonSchema,
  }),
);

/** An operator closed the report: dismissed it, or suspended the account it is about. */
export const ReportClosed = defineEvent(
  'ReportClosed',
  z.object({ reportId: idSchema, closedBy: idSchema, outcome: z.enum(['dismissed', 'suspended']) }),
);

export const reportEventSchema = z.discriminatedUnion('type', [ReportFiled, ReportClosed]);
export type ReportEvent = z.infer<typeof reportEventSchema>;

export const reportStreamId = (reportId: string) => `report-${reportId}`;
