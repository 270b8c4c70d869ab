// The entry of a receiver thread. On Node 20, `node --import tsx` compiles TypeScript on the main
// thread only (and vitest's transform does not reach worker threads either), so the thread loads
// its TypeScript through tsx's API itself.
import { tsImport } from 'tsx/esm/api';

await tsImport('./receiver-worker.ts', import.meta.url);
