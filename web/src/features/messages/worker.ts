/**
 * What the service worker shows of a message: its preview text.
 * This file is the feature's entry point for the service worker: modules without React, the store
 * or i18next, which other features' worker code imports instead of index.ts.
 */
export { previewText } from './preview-text.ts';
