import type { DatabaseSync } from 'node:sqlite';
import { writerCore, type FromWriter, type ToWriter, type WireChange } from './writer-core.ts';

/**
 * The read store's part of the embedded event log's writer thread, when the read models live in
 * the log's file (embedded mode): loaded by that thread with its connection, it applies the read
 * models' changes inside the commit that appends their events, and the read store's own requests
 * (opening a collection, a write of its own) in transactions of their own.
 */
export const openCommitCompanion = (db: DatabaseSync) => {
  const core = writerCore(db);
  return {
    apply: (payload: unknown) => core.applyAll(payload as WireChange[]),
    handle: (request: unknown): FromWriter => core.handle(request as Exclude<ToWriter, { type: 'close' }>),
  };
};
