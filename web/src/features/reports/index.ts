/**
 * Reporting a message, with what the report may reveal.
 * This file is the feature's public entry point: other features import only from here.
 */
export { ReportDialog } from './report-dialog.tsx';
export { earlierForReport, isReportable } from './reportable.ts';
