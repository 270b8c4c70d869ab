import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as turnEnded } from 'node:timers/promises';
import { deepFreeze, DomainError, type DomainEvent } from '@veil/contracts';
import type { AppendResult, Logger, RecordedEvent } from '@veil/ports';
import { importJsonlLogs } from './jsonl-import.ts';
import { openKnownKeys } from './known-keys.ts';
import {
  checkNewestPages,
  createLogIndexes,
  explainLogFileError,
  logFileName,
  openLogDatabase,
  type LogIndex,
} from './log-database.ts';
import { startLogWriter, type LogWriter } from './log-writer.ts';
import { RecentEvents } from './recent-events.ts';

/**
 * The embedded event log: every context's events in one SQLite file on disk, appended by a
 * writer thread, read from this thread through a second connection. Appends are acknowledged
 * only once their transaction is durable; the appends that arrive while one commit is being
 * made share the next one (group commit).
 *
 * The version check, the duplicate check and position assignment happen synchronously when
 * `append` is called, against what is durable plus what is waiting to be (`pending` below), so
 * two appends with the same expected version can never both pass. Reads of a stream see an
 * accepted append at once, as the version check does (a command that lost a race re-reads the
 * winner's event and goes on); followers see only durable events. A commit that fails (a full disk, an I/O error) stores nothing: its
 * appends and those queued behind it are refused with UNAVAILABLE, and the next append tries
 * again.
 */
export interface ContextLog {
  append(event: DomainEvent, expectedVersion: number | undefined): Promise<AppendResult>;
  /** Position of the newest durable event (0 when empty). */
  durableHead(): number;
  /** Durable events after `position`, oldest first, at most `limit`; frozen. */
  readAfter(position: number, limit: number): RecordedEvent[];
  /** One stream's events, oldest first, those accepted and not yet durable included; frozen. */
  readStream(streamId: string): RecordedEvent[];
  readLast(streamId: string): RecordedEvent | null;
  /**
   * Blanks durable events' content in the file for good (`erase` in the port): reads and
   * followers skip them from then on; their positions stay taken and their ids stay known.
   */
  erase(positions: readonly number[]): Promise<void>;
  /** Called after every commit that made events of this context durable. */
  onDurable(listener: () => void): () => void;
}

/**
 * Work done with every commit (inline projections): `prepare` gets the commit's events before it
 * is made and resolves with what the writer's companion stores in the same transaction
 * (undefined: nothing); a rejection refuses the commit. `settled` says whether that commit is
 * durable, before any of its appends is acknowledged.
 */
export interface CommitStep {
  prepare(events: readonly RecordedEvent[]): Promise<unknown>;
  settled(stored: boolean): void;
}

export interface EventLog {
  context(name: string): ContextLog;
  /** Sets the work done with every commit (one at most). */
  withEveryCommit(step: CommitStep): void;
  /** Runs `work` while no commit is being prepared or made; commits wait for it. */
  betweenCommits<T>(work: () => Promise<T>): Promise<T>;
  /** Runs a request of the writer's companion (`companion` option), in a transaction of its own. */
  companionRequest(request: unknown): Promise<unknown>;
  /**
   * Reads the file through this thread's connection, in the read transaction of the turn: what is
   * durable, every acknowledged append included (for readers through `indexes`).
   */
  query<T>(work: (db: DatabaseSync) => T): T;
  close(): Promise<void>;
}

export interface EventLogOptions {
  log: Logger;
  /** Told of every group commit once it is durable: per context, how long it took and its events. */
  onCommit?(context: string, milliseconds: number, events: number): void;
  /** For fault tests: the pages the file may still grow by (`log-writer.worker.ts`). */
  pageLimit?: Int32Array;
  /** Newest events held in memory per context for followers at the head (default 2,048). */
  recentEvents?: number;
  /** A module sharing the writer thread's connection (`CommitCompanion` in log-writer.worker.ts). */
  companion?: string;
  /** Indexes over the log's rows for readers of the file (`query`), created at start when missing. */
  indexes?: readonly LogIndex[];
}

interface Pending {
  context: string;
  position: number;
  event: DomainEvent;
  json: string;
  /** The event as followers get it, made once it is first handed out. */
  recorded?: RecordedEvent;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface ContextState {
  durable: number;
  next: number;
  /** The newest pending position of each stream with appends waiting. */
  pendingVersions: Map<string, number>;
  /** Appends waiting, by position, in order. */
  pendingEvents: Map<number, DomainEvent>;
  /** Appends waiting, by event id: a repeat waits for the original. */
  pendingIds: Map<string, { position: number; durable: Promise<unknown> }>;
  recent: RecentEvents;
  listeners: Set<() => void>;
  view: ContextLog;
}

const unwritable = () =>
  new DomainError('UNAVAILABLE', 'The event log cannot write to disk right now; nothing was stored');

const rows = (found: unknown[], context: string) =>
  (found as { position: number; event: string }[]).map((row) =>
    deepFreeze({ context, position: row.position, event: JSON.parse(row.event) as DomainEvent }),
  );

/** An erased event's row keeps its position, stream and id; its content is blank. */
const queries = (db: DatabaseSync) => ({
  head: db.prepare('SELECT max(position) AS position FROM events WHERE context = ?'),
  after: db.prepare(
    "SELECT position, event FROM events WHERE context = ? AND position > ? AND position <= ? AND event != '' ORDER BY position LIMIT ?",
  ),
  stream: db.prepare(
    "SELECT position, event FROM events WHERE context = ? AND stream = ? AND event != '' ORDER BY position",
  ),
  last: db.prepare(
    "SELECT position, event FROM events WHERE context = ? AND stream = ? AND event != '' ORDER BY position DESC LIMIT 1",
  ),
  /** The checks of an append: its event id stored before, and its stream's version. */
  storedId: db.prepare('SELECT position FROM events WHERE context = ? AND event_id = ?'),
  version: db.prepare(
    "SELECT max(position) AS position FROM events WHERE context = ? AND stream = ? AND event != ''",
  ),
});

/**
 * Opens (or creates) `<dir>/event-log.sqlite`, imports the earlier JSON-lines files found in
 * `dir` (`jsonl-import.ts`), then starts the writer thread.
 */
export const openEventLog = async (dir: string, options: EventLogOptions): Promise<EventLog> => {
  const { log, onCommit } = options;
  const file = path.join(dir, logFileName);
  const db = openLogDatabase(file);
  let writer: LogWriter;
  let sql: ReturnType<typeof queries>;
  try {
    await importJsonlLogs(db, dir, log);
    checkNewestPages(db, file);
    if (options.indexes) createLogIndexes(db, options.indexes, log);
    // This connection only reads from now on; the writer thread owns every write.
    db.exec('PRAGMA query_only = ON');
    sql = queries(db);
    writer = await startLogWriter({
      file,
      ...(options.pageLimit && { pageLimit: options.pageLimit }),
      ...(options.companion && { companion: options.companion }),
    });
  } catch (error) {
    db.close();
    throw explainLogFileError(file, error);
  }
  /**
   * Reads in one turn of the event loop share a read transaction: beginning one takes SQLite's
   * locks (system calls), which the appends of a busy turn would otherwise take one each. It ends
   * when the turn does and before a commit is settled, so a read sees every event durable by then.
   */
  let snapshot = false;
  const endSnapshot = () => {
    if (!snapshot) return;
    snapshot = false;
    db.exec('COMMIT');
  };
  /** Runs a read, turning a damaged page into the error that names the file and the way out. */
  const read = <T>(work: () => T): T => {
    try {
      if (!snapshot) {
        db.exec('BEGIN');
        snapshot = true;
        setImmediate(endSnapshot);
      }
      return work();
    } catch (error) {
      throw explainLogFileError(file, error);
    }
  };

  const known = openKnownKeys(db, read);
  const contexts = new Map<string, ContextState>();
  let queue: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let commitStep: CommitStep | null = null;
  /** Commits, and the work that must not overlap them, one after another. */
  let lane: Promise<unknown> = Promise.resolve();
  const betweenCommits = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lane.then(work);
    lane = run.catch(() => {});
    return run;
  };
  /**
   * While a commit's step is prepared: the newest position of each context in it, and the
   * erasures asked for meanwhile, made in that commit's transaction (a projection applying a
   * deletion erases the content it deletes, perhaps an event of the same commit).
   */
  let preparing: { newest: Map<string, number>; erasures: Map<string, Set<number>> } | null = null;
  const recordOf = (p: Pending) =>
    (p.recorded ??= deepFreeze({ context: p.context, position: p.position, event: p.event }));
  /** Appends refused since commits last failed (0: the log is healthy). */
  let refusedSinceFailure = 0;

  /** Takes back every append not yet durable: none was acknowledged. */
  const refuse = (failed: Pending[], error: unknown) => {
    if (!refusedSinceFailure)
      log.error(
        { err: error },
        'the event log cannot write to disk; appends are refused until a write succeeds',
      );
    refusedSinceFailure += failed.length;
    for (const state of contexts.values()) {
      state.pendingEvents.clear();
      state.pendingIds.clear();
      state.pendingVersions.clear();
      state.next = state.durable + 1;
    }
    for (const p of failed) p.reject(unwritable());
  };

  const settle = (batch: Pending[], milliseconds: number, erasures: Map<string, Set<number>>) => {
    endSnapshot();
    const counts = new Map<string, number>();
    for (const [context, positions] of erasures)
      for (const position of positions) contexts.get(context)?.recent.forget(position);
    for (const p of batch) {
      const state = contexts.get(p.context)!;
      state.durable = p.position;
      state.pendingEvents.delete(p.position);
      if (state.pendingIds.get(p.event.eventId)?.position === p.position)
        state.pendingIds.delete(p.event.eventId);
      if (state.pendingVersions.get(p.event.streamId) === p.position)
        state.pendingVersions.delete(p.event.streamId);
      if (!erasures.get(p.context)?.has(p.position)) state.recent.add(recordOf(p));
      counts.set(p.context, (counts.get(p.context) ?? 0) + 1);
    }
    if (refusedSinceFailure) {
      log.info({ refusedAppends: refusedSinceFailure }, 'the event log writes to disk again');
      refusedSinceFailure = 0;
    }
    // Before anyone hears of the commit: a read after an acknowledged append sees its read models.
    commitStep?.settled(true);
    for (const p of batch) p.resolve({ position: p.position, duplicate: false });
    for (const [context, events] of counts) {
      onCommit?.(context, milliseconds, events);
      for (const listener of contexts.get(context)!.listeners) listener();
    }
  };

  /** Prepares the commit step for `batch` (if any), then makes the commit; false if it was refused. */
  const commitOne = async (batch: Pending[]) => {
    const erasures = new Map<string, Set<number>>();
    let milliseconds: number;
    let prepared = false;
    try {
      let companion: unknown;
      if (commitStep) {
        const newest = new Map<string, number>();
        for (const p of batch) newest.set(p.context, p.position);
        preparing = { newest, erasures };
        try {
          prepared = true;
          companion = await commitStep.prepare(batch.map(recordOf));
        } finally {
          preparing = null;
        }
      }
      const erased = [...erasures]
        .filter(([, positions]) => positions.size)
        .map(([context, positions]) => ({ context, positions: [...positions] }));
      milliseconds = await writer.commit({
        contexts: batch.map((p) => p.context),
        positions: batch.map((p) => p.position),
        streams: batch.map((p) => p.event.streamId),
        eventIds: batch.map((p) => p.event.eventId),
        events: batch.map((p) => p.json),
        ...(erased.length && { erasures: erased }),
        ...(companion !== undefined && { companion }),
      });
    } catch (error) {
      if (prepared) commitStep?.settled(false);
      const failed = [...batch, ...queue];
      queue = [];
      refuse(failed, error);
      return false;
    }
    settle(batch, milliseconds, erasures);
    return true;
  };

  const flush = async () => {
    try {
      while (queue.length) {
        const refused = await betweenCommits(async () => {
          const batch = queue;
          queue = [];
          return batch.length ? !(await commitOne(batch)) : false;
        });
        if (refused) return;
      }
    } finally {
      // Cleared in the same turn as the last look at the queue: an append made by a caller that
      // this flush just resolved starts the next flush instead of waiting behind this one.
      flushing = null;
    }
  };

  const append = (state: ContextState, context: string, event: DomainEvent, expectedVersion?: number) => {
    const waiting = state.pendingIds.get(event.eventId);
    // A repeat is answered only once the stored copy is durable: a retry must not be
    // acknowledged while the original still waits for its commit.
    if (waiting) return waiting.durable.then(() => ({ position: waiting.position, duplicate: true }));
    const stored = known.mayHaveEvent(context, event.eventId)
      ? (read(() => sql.storedId.get(context, event.eventId)) as { position: number } | undefined)
      : undefined;
    if (stored) return Promise.resolve({ position: stored.position, duplicate: true });
    // Appends still waiting for their commit are newer than anything stored.
    const version =
      state.pendingVersions.get(event.streamId) ??
      (known.mayHaveStream(context, event.streamId)
        ? Number(
            (read(() => sql.version.get(context, event.streamId)) as { position: number | null }).position ??
              0,
          )
        : 0);
    if (expectedVersion !== undefined && expectedVersion !== version)
      return Promise.reject(
        new DomainError(
          'VERSION_CONFLICT',
          `Stream ${event.streamId} is at version ${version}, expected ${expectedVersion}`,
        ),
      );
    const position = state.next++;
    known.add(context, event.eventId, event.streamId);
    state.pendingVersions.set(event.streamId, position);
    state.pendingEvents.set(position, event);
    const appended = new Promise<AppendResult>((resolve, reject) => {
      queue.push({ context, position, event, json: JSON.stringify(event), resolve, reject });
      // Sent to the writer once this turn of the event loop is done: every append made in the
      // turn (one per socket read, say) then shares the commit, not only those made while the
      // one before it ran.
      flushing ??= turnEnded().then(flush);
    });
    state.pendingIds.set(event.eventId, { position, durable: appended });
    return appended;
  };

  const stateOf = (context: string): ContextState => {
    const known = contexts.get(context);
    if (known) return known;
    const pendingRecord = (position: number, event: DomainEvent) => deepFreeze({ context, position, event });
    const head = Number((read(() => sql.head.get(context)) as { position: number | null }).position ?? 0);
    const state: ContextState = {
      durable: head,
      next: head + 1,
      pendingVersions: new Map(),
      pendingEvents: new Map(),
      pendingIds: new Map(),
      recent: new RecentEvents(options.recentEvents ?? 2048),
      listeners: new Set(),
      view: {
        append: (event, expectedVersion) => append(state, context, event, expectedVersion),
        durableHead: () => state.durable,
        readAfter(position, limit) {
          const until = state.durable;
          if (position >= until) return [];
          return (
            state.recent.after(position, until, limit) ??
            rows(
              read(() => sql.after.all(context, position, until, limit)),
              context,
            )
          );
        },
        readStream(streamId) {
          const events = rows(
            read(() => sql.stream.all(context, streamId)),
            context,
          );
          const stored = events.at(-1)?.position ?? 0;
          for (const [position, event] of state.pendingEvents)
            if (position > stored && event.streamId === streamId) events.push(pendingRecord(position, event));
          return events;
        },
        readLast(streamId) {
          const pending = state.pendingVersions.get(streamId);
          if (pending !== undefined) return pendingRecord(pending, state.pendingEvents.get(pending)!);
          return (
            rows(
              read(() => sql.last.all(context, streamId)),
              context,
            )[0] ?? null
          );
        },
        async erase(positions) {
          if (preparing) {
            // Asked while a commit is prepared: blanked in that commit's transaction, which may
            // hold the events themselves. Waiting for it here would wait for itself.
            const newest = preparing.newest.get(context) ?? state.durable;
            let erasures = preparing.erasures.get(context);
            if (!erasures) preparing.erasures.set(context, (erasures = new Set()));
            for (const p of positions) if (p >= 1 && p <= newest) erasures.add(p);
            return;
          }
          const durable = [...new Set(positions)].filter((p) => p >= 1 && p <= state.durable);
          if (!durable.length) return;
          await writer.erase({ context, positions: durable });
          endSnapshot();
          for (const position of durable) state.recent.forget(position);
        },
        onDurable(listener) {
          state.listeners.add(listener);
          return () => state.listeners.delete(listener);
        },
      },
    };
    contexts.set(context, state);
    return state;
  };

  let closed: Promise<void> | null = null;
  const close = async () => {
    known.stop();
    await Promise.all([flushing, known.filled]);
    await writer.close();
    endSnapshot();
    db.close();
  };
  return {
    context: (name) => stateOf(name).view,
    withEveryCommit(step) {
      commitStep = step;
    },
    betweenCommits,
    companionRequest: (request) => writer.companion(request),
    query: (work) => read(() => work(db)),
    close: () => (closed ??= close()),
  };
};
