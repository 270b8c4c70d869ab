import { Worker } from 'node:worker_threads';
import type { Arrival, FromWorker, ReceiverSpec, ReceiverWorkerData, ToWorker } from './receiver-worker.ts';

/**
 * The receiving side of the load generator: the users' sockets live in worker threads
 * (receiver-worker.ts), which report arrivals in batches; the main thread keeps only the senders.
 * On one thread, the generator's own event loop queued arrivals behind sends and took most of a
 * core of this 2-core machine.
 */
export const RECEIVER_WORKERS = 2;

export interface Receivers {
  /** Rejects when a worker fails (a socket that cannot connect, a crash); race every wait against it. */
  failed: Promise<never>;
  /** The measured window starts: each worker's event-loop delay counts from here. */
  measure(): void;
  /**
   * Closes every socket and resolves once each worker's last arrivals have been handed to
   * `onArrivals`, then stops the workers; resolves with the worst worker's event-loop delay p99
   * (ms) since `measure`. Calling it again returns the same promise.
   */
  close(): Promise<{ lagP99Ms: number }>;
}

const workerUrl = new URL('./receiver-worker.ts', import.meta.url);

/** Starts the workers, users spread evenly over them; resolves when every socket is connected. */
export const startReceivers = async (
  receivers: { userIndex: number; spec: ReceiverSpec }[],
  workerCount: number,
  onArrivals: (arrivals: Arrival[]) => void,
): Promise<Receivers> => {
  if (!Number.isInteger(workerCount) || workerCount < 1)
    throw new Error(`receiver workers must be a whole number ≥ 1, not ${workerCount}`);
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined); // observed by whoever races against it
  let stopping = false;

  const shares = Array.from({ length: Math.min(workerCount, receivers.length) }, (_, w) =>
    receivers.filter((_, i) => i % workerCount === w),
  );
  const threads = shares.map((share) => {
    const worker = new Worker(workerUrl, { workerData: { receivers: share } satisfies ReceiverWorkerData });
    const replies = new Map<FromWorker['type'], (message: FromWorker) => void>();
    const reply = (type: FromWorker['type']) =>
      new Promise<FromWorker>((resolve) => replies.set(type, resolve));
    const ready = reply('ready');
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'arrivals') onArrivals(message.arrivals);
      else if (message.type === 'failed') fail(new Error(message.message));
      else replies.get(message.type)?.(message);
    });
    worker.on('error', fail);
    worker.on('messageerror', fail);
    worker.on('exit', (code) => {
      if (!stopping) fail(new Error(`a receiver worker exited unexpectedly (code ${code})`));
    });
    return {
      ready,
      ask(message: ToWorker, answer: FromWorker['type']) {
        const answered = reply(answer);
        worker.postMessage(message);
        return answered;
      },
      tell: (message: ToWorker) => worker.postMessage(message),
      terminate: () => worker.terminate(),
    };
  });
  const terminate = async () => {
    stopping = true;
    await Promise.all(threads.map((thread) => thread.terminate()));
  };

  try {
    await Promise.race([Promise.all(threads.map((thread) => thread.ready)), failed]);
  } catch (error) {
    await terminate();
    throw error;
  }

  let closed: Promise<{ lagP99Ms: number }> | undefined;
  return {
    failed,
    measure: () => threads.forEach((thread) => thread.tell({ type: 'measure' })),
    close: () =>
      (closed ??= (async () => {
        try {
          // Messages from a worker arrive in order: 'closed' comes after its last arrivals.
          const answers = await Promise.race([
            Promise.all(threads.map((thread) => thread.ask({ type: 'close' }, 'closed'))),
            failed,
          ]);
          const lags = answers.map((answer) => (answer.type === 'closed' ? answer.lagP99Ms : 0));
          return { lagP99Ms: Math.max(0, ...lags) };
        } finally {
          await terminate();
        }
      })()),
  };
};
