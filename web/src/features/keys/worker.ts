/**
 * The keys the service worker reads: the stored keys and key logs, and the signature fields.
 * This file is the feature's entry point for the service worker: modules without React, the store
 * or i18next, which other features' worker code imports instead of index.ts.
 */
export { readStoredKeyLog } from './key-log-store.ts';
export { readAccountKeys } from './key-store.ts';
export { legacyOnlyBeforeSignedLog } from './legacy-messages.ts';
export { commitmentHolds, sequenceOf } from './signature-fields.ts';
