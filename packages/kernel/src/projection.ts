import { DomainError } from '@veil/contracts';
import type { EventBus, Logger, ReadStore, RecordedEvent, Subscription } from '@veil/ports';
import { createCheckpointSaver, type Checkpoint, type CheckpointSaver } from './checkpoint-saver.ts';

/**
 * A projection turns one or more contexts of the event log into read-model documents.
 * Its checkpoint (last applied position per context) is stored in the same read store as
 * its documents, so the two go together: wipe the store and the projection replays the log
 * from the start; keep it (MongoDB) and the projection resumes where it stopped.
 *
 * Handlers must be idempotent (a crash between applying an event and saving the checkpoint
 * replays that event): they write whole documents or set-like fields, never blind increments.
 */
export interface ProjectionDefinition {
  /** Unique per read model; also the checkpoint key prefix. */
  name: string;
  contexts: readonly string[];
  handle(recorded: RecordedEvent): Promise<void>;
}

export interface RunningProjection {
  /** Resolves once every event up to `position` in `context` has been applied. */
  waitFor(context: string, position: number, timeoutMs?: number): Promise<void>;
  /** Resolves once the projection has applied everything that was in the log when called. */
  catchUp(timeoutMs?: number): Promise<void>;
  /**
   * Reads from the read model; when the result is incomplete (`complete` says no), waits until
   * everything now in `context`'s log is applied and reads once more. For data another request
   * or service wrote a moment ago, which this projection may not have applied yet.
   */
  readFresh<T>(context: string, read: () => Promise<T>, complete: (value: T) => boolean): Promise<T>;
  position(context: string): number;
  stop(): Promise<void>;
}

interface Waiter {
  context: string;
  position: number;
  resolve(): void;
}

export const startProjection = async (deps: {
  bus: EventBus;
  readStore: ReadStore;
  log: Logger;
  definition: ProjectionDefinition;
}): Promise<RunningProjection> => {
  const { bus, readStore, log, definition } = deps;
  const checkpoints = await readStore.collection<Checkpoint>('_checkpoints');
  const positions = new Map<string, number>();
  let waiters: Waiter[] = [];

  const release = () => {
    waiters = waiters.filter((waiter) => {
      const reached = (positions.get(waiter.context) ?? 0) >= waiter.position;
      if (reached) waiter.resolve();
      return !reached;
    });
  };

  const savers: CheckpointSaver[] = [];
  const subscriptions: Subscription[] = [];
  for (const context of definition.contexts) {
    const checkpointId = `${definition.name}:${context}`;
    const start = (await checkpoints.get(checkpointId))?.position ?? 0;
    positions.set(context, start);
    const checkpoint = createCheckpointSaver({ checkpoints, checkpointId, saved: start, log });
    savers.push(checkpoint);
    subscriptions.push(
      await bus.follow({
        context,
        afterPosition: start,
        handler: async (recorded) => {
          try {
            await definition.handle(recorded);
          } catch (error) {
            log.error(
              { err: error, projection: definition.name, position: recorded.position },
              'projection handler failed; retrying',
            );
            throw error;
          }
          positions.set(context, recorded.position);
          checkpoint.save(recorded.position);
          release();
        },
      }),
    );
  }

  const waitFor = (context: string, position: number, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      if ((positions.get(context) ?? 0) >= position) return resolve();
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== waiter);
        reject(new DomainError('UNAVAILABLE', `Read model ${definition.name} is catching up; try again`));
      }, timeoutMs);
      const waiter: Waiter = {
        context,
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      waiters.push(waiter);
    });

  return {
    waitFor,
    position: (context) => positions.get(context) ?? 0,
    async catchUp(timeoutMs = 60_000) {
      await Promise.all(
        definition.contexts.map(async (context) =>
          waitFor(context, await bus.headPosition(context), timeoutMs),
        ),
      );
    },
    async readFresh(context, read, complete) {
      const first = await read();
      if (complete(first)) return first;
      await waitFor(context, await bus.headPosition(context));
      return read();
    },
    async stop() {
      await Promise.all(subscriptions.map((s) => s.stop()));
      await Promise.all(savers.map((saver) => saver.flush()));
    },
  };
};
