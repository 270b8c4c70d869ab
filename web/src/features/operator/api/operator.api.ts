import type { ReportView, SuspendedAccount } from '@veil/contracts';
import { api } from '../../../lib/api.ts';

/** The operator page's calls (docs/api.md, "Operators"); each answers 403 without the role. */
export const operatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOperatorStatus: build.query<{ operator: boolean }, string>({
      // Keyed by account: another account in this tab asks again.
      query: () => ({ url: 'operator/status' }),
    }),
    getReports: build.query<{ reports: ReportView[]; users: Record<string, string> }, 'open' | 'closed'>({
      query: (status) => ({ url: 'operator/reports', params: { status } }),
      providesTags: ['Reports'],
    }),
    getSuspensions: build.query<{ accounts: SuspendedAccount[] }, void>({
      query: () => ({ url: 'operator/suspensions' }),
      providesTags: ['Suspensions'],
    }),
    dismissReport: build.mutation<unknown, string>({
      query: (reportId) => ({
        url: `operator/reports/${encodeURIComponent(reportId)}/dismiss`,
        method: 'POST',
      }),
      invalidatesTags: ['Reports'],
    }),
    suspendAccount: build.mutation<unknown, { userId: string; reportId?: string }>({
      query: ({ userId, reportId }) => ({
        url: `operator/users/${encodeURIComponent(userId)}/suspend`,
        method: 'POST',
        body: reportId ? { reportId } : {},
      }),
      invalidatesTags: ['Reports', 'Suspensions'],
    }),
    unsuspendAccount: build.mutation<unknown, string>({
      query: (userId) => ({ url: `operator/users/${encodeURIComponent(userId)}/unsuspend`, method: 'POST' }),
      invalidatesTags: ['Suspensions'],
    }),
  }),
});

export const {
  useGetOperatorStatusQuery,
  useGetReportsQuery,
  useGetSuspensionsQuery,
  useDismissReportMutation,
  useSuspendAccountMutation,
  useUnsuspendAccountMutation,
} = operatorApi;
