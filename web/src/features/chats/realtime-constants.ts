/** Spec section 9. */
export const typingStopDelayMs = 500;
export const typingIndicatorClearMs = 3000;
export const seenReportIntervalMs = 2000;
export const seenVisibilityThreshold = 0.5;
