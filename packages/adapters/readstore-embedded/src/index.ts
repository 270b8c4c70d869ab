export { createEmbeddedReadStore, matches } from './embedded-read-store.ts';
