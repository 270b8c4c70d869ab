import { once } from 'node:events';
import { setImmediate as turnEnded } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { DuplicateKeyError, type IndexSpec } from '@veil/ports';
import type { FromWriter, ToWriter, WireChange, WriteFailure } from './writer-core.ts';
import type { WriterData } from './writer.worker.ts';

export type { WireChange } from './writer-core.ts';

export interface ReadModelWriter {
  /** Creates a collection's table and indexes (idempotent). */
  collection(name: string, indexes: IndexSpec[]): Promise<void>;
  /** Stores the changes in one transaction, all or none. */
  write(changes: WireChange[]): Promise<void>;
  /** Removes a collection and its indexes, if it exists. */
  drop(name: string): Promise<void>;
  close(): Promise<void>;
}

interface Queued {
  changes: WireChange[];
  resolve(): void;
  reject(error: unknown): void;
}

const workerUrl = new URL('./writer.worker.ts', import.meta.url);

const answerTypes: ReadonlySet<unknown> = new Set<FromWriter['type']>(['ready', 'done', 'failed', 'closed']);
/**
 * Whether a message from the thread is one of its answers. Node posts messages of its own on the
 * same channel (under `node --watch`, one per module the thread loads), which must not be taken
 * for an answer.
 */
const isAnswer = (message: unknown): message is FromWriter =>
  typeof message === 'object' && message !== null && answerTypes.has((message as { type?: unknown }).type);

/** How requests reach the file's writer, and how it is let go. */
export interface WriterTransport {
  /** One request, once the one before it is answered. */
  request(message: Exclude<ToWriter, { type: 'close' }>): Promise<FromWriter>;
  close(): Promise<void>;
}

/** The read store's own writer thread (writer.worker.ts). */
export const startWriterThread = async (data: WriterData): Promise<WriterTransport> => {
  const worker = new Worker(workerUrl, { workerData: data });
  let answer: ((message: FromWriter) => void) | null = null;
  let gone: Error | null = null;
  const answered = () =>
    new Promise<FromWriter>((resolve, reject) => {
      if (gone) return reject(gone);
      answer = resolve;
    });
  const ready = answered();
  worker.on('message', (message: unknown) => {
    if (isAnswer(message)) answer?.(message);
  });
  const stopped = (error: Error) => {
    gone = error;
    // A request in flight is answered with the failure; later ones fail at once.
    answer?.({ type: 'failed', failure: { message: error.message, code: undefined } });
  };
  worker.on('error', stopped);
  worker.on('exit', (code) => stopped(new Error(`the read-model writer thread stopped (exit code ${code})`)));
  await ready;

  let previous: Promise<unknown> = Promise.resolve();
  return {
    request(message) {
      const reply = previous.then(() => {
        const next = answered();
        if (!gone) worker.postMessage(message);
        return next;
      });
      previous = reply.catch(() => {});
      return reply;
    },
    async close() {
      await previous;
      if (gone) return;
      const exited = once(worker, 'exit');
      worker.postMessage({ type: 'close' } satisfies ToWriter);
      await exited;
    },
  };
};

/**
 * The read-model file's writer as the read store sees it. One request is in flight at a time;
 * writes asked for meanwhile go together in the next one, so the busier the service, the more
 * each commit carries.
 */
export const startReadModelWriter = async (
  transport: WriterTransport,
  options: {
    errorOf(failure: WriteFailure): Error;
    /** Told of the writes of each commit that stored them, before any of their callers is. */
    onCommitted(writes: readonly WireChange[][]): void;
  },
): Promise<ReadModelWriter> => {
  const { errorOf } = options;
  const request = (message: Exclude<ToWriter, { type: 'close' }>) => transport.request(message);

  let queue: Queued[] = [];
  let sending: Promise<void> | null = null;
  const sendQueued = async () => {
    while (queue.length) {
      const batch = queue;
      queue = [];
      const reply = await request({ type: 'write', writes: batch.map((queued) => queued.changes) }).catch(
        (error: Error): FromWriter => ({
          type: 'failed',
          failure: { message: error.message, code: undefined },
        }),
      );
      const failureAt = (at: number) =>
        reply.type === 'failed' ? reply.failure : reply.type === 'done' ? (reply.failures[at] ?? null) : null;
      options.onCommitted(batch.flatMap((queued, at) => (failureAt(at) ? [] : [queued.changes])));
      batch.forEach((queued, at) => {
        const failure = failureAt(at);
        if (failure) queued.reject(errorOf(failure));
        else queued.resolve();
      });
    }
    sending = null;
  };

  return {
    async collection(name, indexes) {
      const reply = await request({ type: 'collection', name, indexes });
      if (reply.type === 'failed') throw errorOf(reply.failure);
    },
    async drop(name) {
      await sending;
      const reply = await request({ type: 'drop', name });
      if (reply.type === 'failed') throw errorOf(reply.failure);
    },
    write(changes) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ changes, resolve, reject });
        // Sent once this turn of the event loop is done, with every write asked for in it.
        sending ??= turnEnded().then(sendQueued);
      });
    },
    async close() {
      await sending;
      await transport.close();
    },
  };
};

/** The error a refused write throws on this side: the port's for a duplicate key. */
export const failureError = (failure: WriteFailure, explain: (error: Error) => unknown): Error =>
  'duplicate' in failure
    ? new DuplicateKeyError(failure.duplicate.collection, failure.duplicate.fields)
    : (explain(Object.assign(new Error(failure.message), { errcode: failure.code })) as Error);
