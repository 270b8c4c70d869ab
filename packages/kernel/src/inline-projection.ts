import { DomainError, type Context, type EventOf } from '@veil/contracts';
import type { Change, InlineProjections, InlineStep, RecordedEvent } from '@veil/ports';
import {
  checkpointCollection,
  checkpointId,
  parkedCollection,
  parkedEvent,
  startFollowingProjection,
  type ParkedEvent,
  type ProjectionDeps,
  type RunningProjection,
} from './projection.ts';
import { mergeInto, pendingChanges, stagedViews, type PendingWrites, type Staging } from './staging.ts';

/**
 * A projection applied inside the event log's commits (embedded mode): before each commit its
 * handlers make their changes from the commit's events, through staged views, and the log's
 * writer stores them and the projection's checkpoints in the transaction that appends the
 * events. Its read models are at the log's head whenever an append is acknowledged, so the
 * waits of `RunningProjection` resolve at once.
 *
 * At start it catches up from its checkpoints by following the log (`startFollowingProjection`),
 * while the log holds its commits back, then joins the commits. A handler that fails on an event
 * has the event parked at once, in the same commit: retrying with pauses, as a follower does,
 * would hold back every append behind it. A handler must not append to the log nor wait for
 * anything a commit resolves: the commit it runs in waits for it.
 */
export const startInlineProjection = async (
  deps: ProjectionDeps & { inline: InlineProjections },
): Promise<RunningProjection> => {
  const { bus, log, definition } = deps;
  const positions = new Map<string, number>();
  let catchingUp: RunningProjection | null = null;
  let waiters: { context: string; position: number; resolve(): void }[] = [];
  const release = () => {
    waiters = waiters.filter((waiter) => {
      const reached = (positions.get(waiter.context) ?? 0) >= waiter.position;
      if (reached) waiter.resolve();
      return !reached;
    });
  };
  const position = (context: string) => catchingUp?.position(context) ?? positions.get(context) ?? 0;

  /** What the commit being made covers, once `prepare` has run. */
  let prepared: { covered: Map<string, number>; parked: ParkedEvent[] } | null = null;
  /**
   * One set of views for the step's life (a commit prepares its events one at a time): each
   * event writes to a fresh `own` and reads the commit's earlier events' writes underneath.
   */
  let commitWrites: PendingWrites = new Map();
  const staging: Staging = { own: new Map(), underneath: () => [commitWrites] };
  const views = stagedViews(definition.models, staging);

  const step: InlineStep = {
    contexts: definition.contexts,
    async catchUp() {
      const follower = await startFollowingProjection(deps);
      catchingUp = follower;
      try {
        await follower.catchUp();
      } finally {
        await follower.stop();
        catchingUp = null;
      }
      for (const context of definition.contexts) positions.set(context, follower.position(context));
    },
    async prepare(events) {
      const writes: PendingWrites = new Map();
      commitWrites = writes;
      const covered = new Map<string, number>();
      const parked: ParkedEvent[] = [];
      for (const recorded of events as readonly RecordedEvent<EventOf<Context>>[]) {
        const own: PendingWrites = new Map();
        staging.own = own;
        try {
          await definition.handle(recorded, views);
          mergeInto(writes, own);
        } catch (error) {
          const doc = parkedEvent(definition, recorded, error, 1);
          log.error(
            {
              err: error,
              projection: definition.name,
              context: recorded.context,
              position: recorded.position,
              eventType: doc.eventType,
            },
            'event parked: the projection handler failed on it; going on without it',
          );
          parked.push(doc);
        }
        covered.set(recorded.context, recorded.position);
      }
      prepared = { covered, parked };
      return [
        ...pendingChanges(writes),
        ...parked.map((doc): Change => ({ collection: parkedCollection, put: doc })),
        ...[...covered].map(([context, at]) => ({
          collection: checkpointCollection,
          put: { _id: checkpointId(definition, context), position: at },
        })),
      ];
    },
    settled(stored) {
      const done = prepared;
      prepared = null;
      if (!stored || !done) return;
      for (const [context, at] of done.covered) positions.set(context, at);
      for (const doc of done.parked) deps.onParked?.(doc);
      release();
    },
  };
  const attached = await deps.inline.attach(step);

  const waitFor = (context: Context, target: number, timeoutMs = 5_000) =>
    new Promise<void>((resolve, reject) => {
      if (position(context) >= target) return resolve();
      const timer = setTimeout(() => {
        waiters = waiters.filter((waiter) => waiter !== entry);
        reject(new DomainError('UNAVAILABLE', `Read model ${definition.name} is catching up; try again`));
      }, timeoutMs);
      const entry = {
        context,
        position: target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      waiters.push(entry);
    });
  const waitForHead = async (context: Context, timeoutMs?: number) =>
    waitFor(context, await bus.headPosition(context), timeoutMs);

  return {
    waitFor,
    position,
    // Caught up before it joined the commits: every acknowledged append is applied.
    async catchUp() {},
    async readFresh(context, read, complete) {
      const first = await read();
      if (complete(first)) return first;
      await waitForHead(context);
      return read();
    },
    async upToDate(contexts = definition.contexts, timeoutMs = 1_000) {
      await Promise.all(contexts.map((context) => waitForHead(context, timeoutMs).catch(() => {})));
    },
    async stop() {
      await attached.detach();
    },
  };
};
