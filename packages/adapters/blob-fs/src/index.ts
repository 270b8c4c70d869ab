export { createFsBlobStore } from './fs-blob-store.ts';
