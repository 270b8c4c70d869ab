import type { RecordedEvent } from './event-store.port.ts';
import type { Change } from './read-store.port.ts';

/**
 * Projections applied inside the event log's own commits (the embedded mode, where the log and
 * the read models share one SQLite file and one writer): each commit appends its events and
 * stores what its projections make of them in the same transaction, so a read that follows an
 * acknowledged append sees it, with nothing to wait for. Cluster mode has none of this: its
 * projections follow the log (`follow`).
 */
export interface InlineStep {
  /** The contexts whose events the step is given. */
  readonly contexts: readonly string[];
  /**
   * Brings the step's read models up to the log's head (from its checkpoints), while the log
   * holds its commits back; called once, before the step joins them.
   */
  catchUp(): Promise<void>;
  /**
   * What the step makes of a commit's events (its contexts' only, in the order appended): the
   * read-model changes to store with them, its checkpoints included. Resolves even when a handler
   * fails on an event (that event is parked); a rejection refuses the whole commit.
   */
  prepare(events: readonly RecordedEvent[]): Promise<readonly Change[]>;
  /** The commit of the last `prepare` is durable (`true`), or was refused and stored nothing. */
  settled(stored: boolean): void;
}

export interface InlineProjections {
  /** Catches the step up and runs it in every commit from then on, until `detach`. */
  attach(step: InlineStep): Promise<{ detach(): Promise<void> }>;
}
