/**
 * Search over this browser's own index of the messages it decrypted.
 * This file is the feature's public entry point: other features import only from here.
 */
export { MessageResults } from './message-search.tsx';
export { indexShownMessages } from './search-indexer.ts';
