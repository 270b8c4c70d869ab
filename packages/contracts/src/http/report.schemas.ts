import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { reportReasonSchema, type ReportedMessage, type ReportReason } from '../events/report.events.ts';
import { limits } from '../limits.ts';
import { isPaddedBase64 } from './schemas.ts';

/**
 * One message as a reporter reveals it: its decrypted text and the franking key that was sealed
 * inside it (docs/crypto.md, "Message franking").
 */
export const revealedMessageSchema = z.object({
  messageId: idSchema,
  text: z.string({ error: 'text is required' }).max(limits.reportTextMaxChars, 'text is too long'),
  frankingKey: z
    .string({ error: 'frankingKey is required' })
    .refine((s) => isPaddedBase64(s) && atob(s).length === 32, 'frankingKey must be 32 bytes, base64'),
});
export type RevealedMessage = z.infer<typeof revealedMessageSchema>;

/**
 * `POST /message/:messageId/report`: the reported message revealed, and optionally a few
 * messages before it in the same chat (oldest first) for context.
 */
export const reportBodySchema = z.object({
  text: revealedMessageSchema.shape.text,
  frankingKey: revealedMessageSchema.shape.frankingKey,
  earlier: z
    .array(revealedMessageSchema)
    .max(limits.reportEarlierMessagesMax, `At most ${limits.reportEarlierMessagesMax} earlier messages`)
    .optional(),
  reason: reportReasonSchema,
});

/** `GET /operator/reports?status=`: open reports (the default), or closed ones. */
export const reportListQuerySchema = z.object({
  status: z.enum(['open', 'closed'], { error: 'status must be open or closed' }).default('open'),
});

/** `POST /operator/users/:userId/suspend`: optionally the report the suspension answers. */
export const suspendBodySchema = z.object({ reportId: idSchema.optional() });

/** A report as operators read it; `users` in the list answer names every id in it. */
export interface ReportView {
  _id: string;
  reporterId: string;
  chatId: string;
  accusedId: string;
  messageId: string;
  messages: ReportedMessage[];
  reason: ReportReason;
  filedAt: string;
  status: 'open' | 'dismissed' | 'suspended';
  closedAt?: string;
  closedBy?: string;
}

/** A suspended account, for the operator page (unsuspend). */
export interface SuspendedAccount {
  userId: string;
  username: string;
  suspendedAt: string;
  suspendedBy: string;
}
