import { DomainError, type Context, type EventOf } from '@veil/contracts';
import type {
  ContextEventBus,
  ContextEventStore,
  InlineProjections,
  Logger,
  Ports,
  ReadStore,
  RecordedEvent,
  Subscription,
} from '@veil/ports';
import { createCatchUpReport } from './catch-up-report.ts';
import {
  mergeInto,
  pendingChanges,
  stagedViews,
  type PendingWrites,
  type ReadModels,
  type Staged,
} from './staging.ts';

/**
 * A projection turns one or more contexts of the event log into read-model documents.
 *
 * Its checkpoint (the last applied position per context) lives in the same read store as its
 * documents and is written in the same `write` as the documents it covers: one transaction on
 * SQLite (and on MongoDB with a replica set), so the checkpoint is never ahead of its data nor
 * behind it. A restart resumes from the checkpoint; wipe the store and the projection replays
 * the log from the start.
 *
 * Handlers write through staged views (staging.ts): what they put waits in memory, readable by
 * later events, until it is stored together with the checkpoint. Events that arrive together
 * (a replay, a burst) are stored in one write of up to `batchSize` events; a lone event is
 * stored as soon as the event loop is free. `waitFor` and `position` count only stored events,
 * so a read that waits for a position sees its effects.
 *
 * Handlers must still be idempotent: on MongoDB without a replica set a failed write can leave
 * documents stored without their checkpoint, and those events are applied again.
 */
export interface ProjectionDefinition<M extends ReadModels = ReadModels, C extends Context = Context> {
  /** Unique per read model; also the checkpoint key prefix. */
  name: string;
  contexts: readonly C[];
  /** The collections the projection writes (a rebuild clears them). */
  models: M;
  handle(recorded: RecordedEvent<EventOf<C>>, models: Staged<M>): Promise<void>;
}

/**
 * How a service gives its projections to tools (`npm run rebuild`) without starting. The log is
 * for projections that act on it as they apply events (the message timeline erases a deleted
 * message's content).
 */
export type OpenProjection = (
  readStore: ReadStore,
  log: ContextEventStore,
  /** What the composition root gives the service besides (the log's message timeline). */
  ports?: Pick<Ports, 'messageTimeline'>,
) => Promise<ProjectionDefinition | readonly ProjectionDefinition[]>;

export interface Checkpoint {
  _id: string;
  position: number;
}

export const checkpointCollection = '_checkpoints';

/**
 * Events a projection's handler failed on until it gave up: kept with the error, the position
 * and the projection, stored in the same write as the checkpoint that moves past them.
 */
export interface ParkedEvent {
  _id: string;
  projection: string;
  context: string;
  position: number;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
  parkedAt: string;
}

export const parkedCollection = '_parked';
const parkedIndexes = [{ fields: { projection: 1 } as const }];
export const checkpointId = (definition: Pick<ProjectionDefinition, 'name'>, context: string) =>
  `${definition.name}:${context}`;

export interface RunningProjection {
  /** Resolves once every event up to `position` in `context` has been applied and stored. */
  waitFor(context: Context, position: number, timeoutMs?: number): Promise<void>;
  /**
   * Resolves once the projection has applied everything that was in the log when called. Fails
   * only when it stops making progress for `stallMs` (default 60 s): building a large read model
   * from the log may take minutes, and is fine while it moves.
   */
  catchUp(stallMs?: number): Promise<void>;
  /**
   * Reads from the read model; when the result is incomplete (`complete` says no), waits until
   * everything now in `context`'s log is applied and reads once more. For data another request
   * or service wrote a moment ago, which this projection may not have applied yet.
   */
  readFresh<T>(context: Context, read: () => Promise<T>, complete: (value: T) => boolean): Promise<T>;
  /**
   * Resolves once everything in the logs of `contexts` (default: every context it follows) when
   * called is applied and stored: a read after it sees every event a socket may have been told
   * of before, whatever wrote it. After `timeoutMs` (default 1 s) it resolves anyway: a log whose
   * newest event was erased is never applied up to its head, and a read a little behind beats
   * none.
   */
  upToDate(contexts?: readonly Context[], timeoutMs?: number): Promise<void>;
  position(context: string): number;
  stop(): Promise<void>;
}

interface Waiter {
  context: string;
  position: number;
  resolve(): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The document that sets an event aside, with the error its handler failed with. */
export const parkedEvent = (
  definition: Pick<ProjectionDefinition, 'name'>,
  recorded: RecordedEvent,
  error: unknown,
  attempts: number,
): ParkedEvent => ({
  _id: `${definition.name}:${recorded.context}:${recorded.position}`,
  projection: definition.name,
  context: recorded.context,
  position: recorded.position,
  eventId: recorded.event.eventId,
  eventType: recorded.event.type,
  error: error instanceof Error ? error.message : String(error),
  attempts,
  parkedAt: new Date().toISOString(),
});

export interface ProjectionDeps {
  bus: ContextEventBus;
  readStore: ReadStore;
  log: Logger;
  definition: ProjectionDefinition;
  /** Events stored per write at most (default 1,000). */
  batchSize?: number;
  /** Pause before a failed write is tried again (default 500 ms). */
  retryDelayMs?: number;
  /**
   * Tries of a handler on one event before the event is parked (default 6), the first pause
   * between them (default 200 ms, doubling up to `handlerRetryMaxMs`, default 5 s).
   */
  handlerAttempts?: number;
  handlerRetryFirstMs?: number;
  handlerRetryMaxMs?: number;
  /** Told of every parked event (a metric counts them). */
  onParked?(parked: ParkedEvent): void;
  /**
   * The log's commits, when it runs projections inside them (embedded mode): the projection
   * then catches up by following the log and from there on is applied in each commit.
   */
  inline?: InlineProjections;
}

/** A projection that follows the log and stores what it staged with its checkpoints. */
export const startFollowingProjection = async (deps: ProjectionDeps): Promise<RunningProjection> => {
  const { bus, readStore, log, definition } = deps;
  const batchSize = deps.batchSize ?? 1_000;
  const retryDelayMs = deps.retryDelayMs ?? 500;
  const handlerAttempts = deps.handlerAttempts ?? 6;
  const handlerRetryFirstMs = deps.handlerRetryFirstMs ?? 200;
  const handlerRetryMaxMs = deps.handlerRetryMaxMs ?? 5_000;
  const checkpoints = await readStore.collection<Checkpoint>(checkpointCollection);
  await readStore.collection<ParkedEvent>(parkedCollection, parkedIndexes);

  /** Stored positions: what reads may rely on. */
  const positions = new Map<string, number>();
  const heads = new Map<string, number>();
  for (const context of definition.contexts) {
    const start = (await checkpoints.get(checkpointId(definition, context)))?.position ?? 0;
    const head = await bus.headPosition(context);
    if (start > head) {
      throw new Error(
        `The read model ${definition.name} has applied the ${context} log up to position ${start}, ` +
          `but that log ends at ${head}: the read models come from another event log. ` +
          'Rebuild them from this one: npm run rebuild',
      );
    }
    positions.set(context, start);
    heads.set(context, head);
  }
  const report = createCatchUpReport({ log, projection: definition.name, from: positions, to: heads });

  let waiters: Waiter[] = [];
  const release = () => {
    waiters = waiters.filter((waiter) => {
      const reached = (positions.get(waiter.context) ?? 0) >= waiter.position;
      if (reached) waiter.resolve();
      return !reached;
    });
    report.stored(positions);
  };

  /** Applied, not yet being stored. */
  let staged: PendingWrites = new Map();
  let stagedPositions = new Map<string, number>();
  let stagedEvents = 0;
  let stagedParked: ParkedEvent[] = [];
  /** Being stored now (still readable by handlers until the store has it). */
  let storing: PendingWrites | null = null;
  let store: Promise<void> | null = null;
  let flushScheduled = false;
  let stopping = false;
  let gaveUp = false;

  /** Stores what is staged with the checkpoints it covers, in one write; a failure keeps it all staged and tries again. */
  const storeStaged = async () => {
    for (let attempt = 1; ; attempt++) {
      const writes = staged;
      const covered = stagedPositions;
      const events = stagedEvents;
      const parked = stagedParked;
      staged = new Map();
      stagedPositions = new Map();
      stagedEvents = 0;
      stagedParked = [];
      storing = writes;
      const marks = [
        ...parked.map((doc) => ({ collection: parkedCollection, put: doc })),
        ...[...covered].map(([context, position]) => ({
          collection: checkpointCollection,
          put: { _id: checkpointId(definition, context), position },
        })),
      ];
      try {
        await readStore.write([...pendingChanges(writes), ...marks]);
        storing = null;
        for (const [context, position] of covered) positions.set(context, position);
        release();
        if (attempt > 1)
          log.info({ projection: definition.name, attempts: attempt }, 'read model stored again');
        return;
      } catch (error) {
        storing = null;
        // What was staged meanwhile is newer: it goes on top, and everything is tried again.
        mergeInto(writes, staged);
        staged = writes;
        for (const [context, position] of stagedPositions) covered.set(context, position);
        stagedPositions = covered;
        stagedEvents += events;
        stagedParked = [...parked, ...stagedParked];
        // Once per outage at error, then one line a minute: a full disk must not flood the log.
        if (attempt === 1 || attempt % Math.max(1, Math.round(60_000 / retryDelayMs)) === 0)
          log.error({ err: error, projection: definition.name, attempt }, 'read model not stored; retrying');
        if (stopping && attempt >= 3) {
          gaveUp = true;
          log.error(
            { projection: definition.name },
            'read model changes given up at stop; their events are applied again at the next start',
          );
          return;
        }
        await sleep(retryDelayMs);
      }
    }
  };
  const flush = async (): Promise<void> => {
    while (store) await store;
    if (!stagedEvents || gaveUp) return;
    store = storeStaged().finally(() => (store = null));
    await store;
  };
  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      void flush();
    });
  };
  const underneath = () => (storing ? [staged, storing] : [staged]);

  /**
   * Applies one event, trying a failing handler again with a growing pause. A handler that still
   * fails after `handlerAttempts` tries has met an event it cannot handle (a poison event): it is
   * parked, with its error, in the same write as the checkpoint that moves past it, so one bad
   * event cannot stall everything behind it. Its changes, if any, are dropped.
   */
  const apply = async (recorded: RecordedEvent<EventOf<Context>>): Promise<PendingWrites | null> => {
    for (let attempt = 1; ; attempt++) {
      const own: PendingWrites = new Map();
      try {
        await definition.handle(recorded, stagedViews(definition.models, { own, underneath }));
        return own;
      } catch (error) {
        const where = { projection: definition.name, context: recorded.context, position: recorded.position };
        if (attempt >= handlerAttempts) {
          const parked = parkedEvent(definition, recorded, error, attempt);
          log.error(
            { err: error, ...where, eventType: parked.eventType, attempts: attempt },
            'event parked: the projection handler failed on it every time; going on without it',
          );
          stagedParked.push(parked);
          deps.onParked?.(parked);
          return null;
        }
        log.warn({ err: error, ...where, attempt }, 'projection handler failed; trying again');
        // Stopping: give the event back to the log, which delivers it again at the next start.
        if (stopping) throw error;
        await sleep(Math.min(handlerRetryMaxMs, handlerRetryFirstMs * 2 ** (attempt - 1)));
      }
    }
  };

  const subscriptions: Subscription[] = [];
  for (const context of definition.contexts) {
    subscriptions.push(
      await bus.follow({
        context,
        afterPosition: positions.get(context)!,
        handler: async (recorded) => {
          const own = await apply(recorded);
          if (own) mergeInto(staged, own);
          stagedPositions.set(context, recorded.position);
          stagedEvents++;
          report.applied();
          if (stagedEvents >= batchSize) await flush();
          else scheduleFlush();
        },
      }),
    );
  }

  const waitFor = (context: Context, position: number, timeoutMs = 5_000) =>
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

  const upToDate = async (contexts = definition.contexts, timeoutMs = 1_000) => {
    await Promise.all(
      contexts.map(async (context) =>
        waitFor(context, await bus.headPosition(context), timeoutMs).catch(() => {}),
      ),
    );
  };

  return {
    waitFor,
    position: (context) => positions.get(context) ?? 0,
    async catchUp(stallMs = 60_000) {
      await Promise.all(
        definition.contexts.map(async (context) => {
          const head = await bus.headPosition(context);
          for (;;) {
            const before = positions.get(context) ?? 0;
            try {
              return await waitFor(context, head, stallMs);
            } catch (error) {
              if ((positions.get(context) ?? 0) === before) throw error;
            }
          }
        }),
      );
    },
    async readFresh(context, read, complete) {
      const first = await read();
      if (complete(first)) return first;
      await waitFor(context, await bus.headPosition(context));
      return read();
    },
    upToDate,
    async stop() {
      stopping = true;
      await Promise.all(subscriptions.map((s) => s.stop()));
      await flush();
      report.stop();
    },
  };
};

/**
 * Empties a projection's read models and its checkpoints, for a rebuild. The checkpoints go
 * first: stopped half way, documents are left without a checkpoint (a replay from the start
 * overwrites them), never a checkpoint ahead of its documents.
 */
export const resetProjection = async (readStore: ReadStore, definition: ProjectionDefinition) => {
  await readStore.collection(checkpointCollection);
  await readStore.write(
    definition.contexts.map((context) => ({
      collection: checkpointCollection,
      delete: checkpointId(definition, context),
    })),
  );
  for (const model of Object.values(definition.models)) await model.clear();
  // A rebuild meets its poison events again and parks them again.
  const parked = await readStore.collection<ParkedEvent>(parkedCollection, parkedIndexes);
  for (const doc of await parked.find({ projection: definition.name })) await parked.delete(doc._id);
};
