export { createMongoReadStore, toMongoFilter } from './mongo-read-store.ts';
