/** Timings of typing notices and read receipts (docs/web.md, "Realtime"). */
export const typingStopDelayMs = 500;
export const typingIndicatorClearMs = 3000;
export const seenReportIntervalMs = 2000;
export const seenVisibilityThreshold = 0.5;
