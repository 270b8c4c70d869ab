export { createMinioBlobStore, type MinioBlobOptions } from './minio-blob-store.ts';
