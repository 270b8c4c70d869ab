import type { ReportView } from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';

/** A report as operators read it (`ReportView`), with a flag to list open ones by. */
export interface ReportDoc extends ReportView {
  open: boolean;
}

export type ReportModels = { reports: Collection<ReportDoc> };

export const openReportModels = async (readStore: ReadStore): Promise<ReportModels> => ({
  reports: await readStore.collection<ReportDoc>('message_reports', [{ fields: { open: 1, filedAt: -1 } }]),
});

/** The reports for the operator page, from the report context alone; its own checkpoint. */
export const reportProjection = (models: ReportModels): ProjectionDefinition<ReportModels, 'report'> => ({
  name: 'message_reports',
  contexts: ['report'],
  models,
  async handle({ event }, { reports }) {
    switch (event.type) {
      case 'ReportFiled': {
        const { reportId, ...report } = event.data;
        await reports.put({
          _id: reportId,
          ...report,
          filedAt: event.occurredAt,
          status: 'open',
          open: true,
        });
        return;
      }
      case 'ReportClosed': {
        const doc = await reports.get(event.data.reportId);
        if (doc)
          await reports.put({
            ...doc,
            open: false,
            status: event.data.outcome,
            closedAt: event.occurredAt,
            closedBy: event.data.closedBy,
          });
        return;
      }
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});

export const reportViewOf = ({ open: _open, ...view }: ReportDoc): ReportView => view;
