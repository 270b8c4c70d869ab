/** The search feature's public entry point: other features import it only from here. */
export { MessageResults } from './message-search.tsx';
export { indexShownMessages } from './search-indexer.ts';
