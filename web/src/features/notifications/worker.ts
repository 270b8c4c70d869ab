/**
 * The notification settings as the service worker reads them.
 * This file is the feature's entry point for the service worker: modules without React, the store
 * or i18next, which other features' worker code imports instead of index.ts.
 */
export { readNotificationSettings } from './notification-store.ts';
