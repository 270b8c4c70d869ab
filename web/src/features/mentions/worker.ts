/**
 * Whether a pushed message mentions the account.
 * This file is the feature's entry point for the service worker: modules without React, the store
 * or i18next, which other features' worker code imports instead of index.ts.
 */
export { mentionsUser } from './mention-text.ts';
