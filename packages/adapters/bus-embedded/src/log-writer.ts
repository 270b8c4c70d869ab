import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type {
  CommitRequest,
  CompanionRequest,
  EraseRequest,
  FromWriter,
  ToWriter,
  WriterData,
} from './log-writer.worker.ts';

/** A group commit the writer could not make durable; nothing of it was stored. */
export class CommitFailedError extends Error {
  readonly sqliteCode: number | undefined;
  constructor(message: string, sqliteCode: number | undefined) {
    super(message);
    this.name = 'CommitFailedError';
    this.sqliteCode = sqliteCode;
  }
}

export interface LogWriter {
  /** Makes one batch durable in one transaction; resolves with the time it took, in ms. */
  commit(batch: Omit<CommitRequest, 'type'>): Promise<number>;
  /** Blanks durable events' content in one transaction. */
  erase(request: Omit<EraseRequest, 'type'>): Promise<void>;
  /** Runs a request of the companion (`WriterData.companion`) and resolves with its answer. */
  companion(request: CompanionRequest['request']): Promise<unknown>;
  close(): Promise<void>;
}

const workerUrl = new URL('./log-writer.worker.ts', import.meta.url);

const answerTypes: ReadonlySet<unknown> = new Set<FromWriter['type']>([
  'ready',
  'committed',
  'answered',
  'failed',
  'closed',
]);
/**
 * Whether a message from the thread is one of its answers. Node posts messages of its own on the
 * same channel (under `node --watch`, one per module the thread loads): taken for an answer, one
 * would acknowledge a commit that was not made.
 */
const isAnswer = (message: unknown): message is FromWriter =>
  typeof message === 'object' && message !== null && answerTypes.has((message as { type?: unknown }).type);

/**
 * Starts the writer thread on the log's file (already created by the caller). Requests are made
 * one at a time, in the order asked; the caller groups appends into commits.
 */
export const startLogWriter = async (data: WriterData): Promise<LogWriter> => {
  const worker = new Worker(workerUrl, { workerData: data });
  let waiting: { resolve(value: FromWriter): void; reject(error: unknown): void } | null = null;
  let gone: Error | null = null;
  const answered = () => new Promise<FromWriter>((resolve, reject) => (waiting = { resolve, reject }));
  const first = answered();
  worker.on('message', (message: unknown) => {
    if (isAnswer(message)) waiting?.resolve(message);
  });
  // The thread's own failure (it could not open the file, or it died): every later commit fails.
  const fail = (error: Error) => {
    gone = error;
    waiting?.reject(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the event log's writer thread stopped (exit code ${code})`)));
  await first;

  /** Sends one request once the one before it is answered, and resolves with its answer. */
  let previous: Promise<unknown> = Promise.resolve();
  const request = (message: ToWriter): Promise<FromWriter> => {
    const answer = previous
      .catch(() => {})
      .then(async () => {
        if (gone) throw new CommitFailedError(gone.message, undefined);
        const replied = answered();
        worker.postMessage(message);
        const reply = await replied.catch((error: Error) => {
          throw new CommitFailedError(error.message, undefined);
        });
        if (reply.type === 'failed') throw new CommitFailedError(reply.message, reply.code);
        return reply;
      });
    previous = answer;
    return answer;
  };

  return {
    commit: async (batch) => {
      const reply = await request({ type: 'commit', ...batch });
      return reply.type === 'committed' ? reply.milliseconds : 0;
    },
    erase: async (erasure) => void (await request({ type: 'erase', ...erasure })),
    companion: async (companionRequest) => {
      const reply = await request({ type: 'companion', request: companionRequest });
      return reply.type === 'answered' ? reply.answer : undefined;
    },
    async close() {
      await previous.catch(() => {});
      if (gone) return;
      const exited = once(worker, 'exit');
      worker.postMessage({ type: 'close' });
      await exited;
    },
  };
};
