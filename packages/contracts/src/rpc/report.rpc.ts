import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { reportReasonSchema } from '../events/report.events.ts';
import { revealedMessageSchema, type ReportView } from '../http/report.schemas.ts';
import { limits } from '../limits.ts';
import { operation } from './rpc.ts';

/**
 * The message service's report operations (served under the message contract). `reporterId`
 * and `closedBy` always come from the verified token; only operators reach `reports` and
 * `closeReport` (the gateway checks the role).
 */
export const reportOperations = {
  /** Files a report after checking every revealed message against its signed franking tag. */
  report: operation<{ report: ReportView }>()(
    z.object({
      reporterId: idSchema,
      messageId: idSchema,
      text: revealedMessageSchema.shape.text,
      frankingKey: revealedMessageSchema.shape.frankingKey,
      earlier: z.array(revealedMessageSchema).max(limits.reportEarlierMessagesMax).default([]),
      reason: reportReasonSchema,
    }),
  ),
  /** Reports, newest first: the open ones or the closed ones. */
  reports: operation<{ reports: ReportView[] }>()(z.object({ status: z.enum(['open', 'closed']) })),
  closeReport: operation<{ report: ReportView }>()(
    z.object({ reportId: idSchema, closedBy: idSchema, outcome: z.enum(['dismissed', 'suspended']) }),
  ),
};
