/**
 * Timings of typing notices and read receipts (docs/web.md, "Realtime"). "Typing" holds 3 s
 * after the last key, as Signal's does, so a pause to think does not make it flicker; the other
 * side drops it by itself 5 s after the last notice if the stop never comes.
 */
export const typingStopDelayMs = 3000;
export const typingIndicatorClearMs = 5000;
export const seenReportIntervalMs = 2000;
export const seenVisibilityThreshold = 0.5;
