import type { ReportReason } from '@veil/contracts';
import { api } from '../../lib/api.ts';

/** One message as a report reveals it: its text and the franking key sealed inside it. */
export interface RevealedMessage {
  messageId: string;
  text: string;
  frankingKey: string;
}

/** Reporting a message to the server's operators (docs/api.md, "Reports"). */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    reportMessage: build.mutation<
      { reportId: string },
      RevealedMessage & { earlier: RevealedMessage[]; reason: ReportReason }
    >({
      query: ({ messageId, text, frankingKey, earlier, reason }) => ({
        url: `message/${encodeURIComponent(messageId)}/report`,
        method: 'POST',
        body: { text, frankingKey, reason, ...(earlier.length && { earlier }) },
      }),
    }),
  }),
});

export const { useReportMessageMutation } = reportsApi;
