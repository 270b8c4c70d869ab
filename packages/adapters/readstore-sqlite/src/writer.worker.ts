import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database.ts';
import { writerCore, type FromWriter, type ToWriter } from './writer-core.ts';

/**
 * The read-model file's only writer, on a thread of its own: SQLite's work for a write (the
 * documents, their index keys, the commit) was a third of the busy main thread in profiles, and
 * none of it needs the event loop. The thread that serves requests reads through a connection of
 * its own (WAL: readers see each commit once it is made).
 *
 * Each request carries every write that waited while the one before it ran (a group commit):
 * one transaction, each write in a savepoint of its own, so one write refused (a duplicate key)
 * takes nothing of the others with it.
 */
export interface WriterData {
  file: string;
}

export type { FromWriter, ToWriter, WireChange, WriteFailure } from './writer-core.ts';

const { file } = workerData as WriterData;
const port = parentPort!;
const reply = (message: FromWriter) => port.postMessage(message);
const db = openDatabase(file);
const core = writerCore(db);

port.on('message', (message: ToWriter) => {
  if (message.type !== 'close') return reply(core.handle(message));
  db.close();
  reply({ type: 'closed' });
  port.close();
});
reply({ type: 'ready' });
