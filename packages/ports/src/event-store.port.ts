import type { Context, DomainEvent, EventOf } from '@veil/contracts';

/**
 * The durable, append-only event log. Events live in one log per bounded context
 * (`context`: auth, user, chat, message); inside it, `streamId` names one aggregate.
 *
 * Positions are per context, start at 1 and never change. A stream's *version* is the
 * position of its last event (0 when the stream is empty), exactly JetStream's
 * "last subject sequence", which is what makes optimistic appends cheap on NATS.
 */
export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  context: string;
  position: number;
  event: E;
}

export interface AppendOptions {
  /**
   * Optimistic concurrency: the append succeeds only if the stream's version equals this.
   * 0 means "the stream must be empty". Omit to append unconditionally.
   * On mismatch the append rejects with DomainError('VERSION_CONFLICT').
   */
  expectedVersion?: number;
}

export interface AppendResult {
  position: number;
  /**
   * True when an event with the same `eventId` was already stored (within the de-duplication
   * window): nothing was appended and `position` is the stored event's. Commands that derive
   * the event id from a client's idempotency key answer a retry with the original result.
   */
  duplicate: boolean;
}

export interface EventStore {
  /**
   * True when a repeated `eventId` is refused for good, not only within a window (the embedded
   * log keeps every id, erased events' too; JetStream forgets them after its duplicate window).
   * A command may then rely on the append alone to catch a retry.
   */
  readonly deduplicatesForever?: boolean;
  /**
   * Appends one event to `context`/`event.streamId`. Resolves only once the event is durable
   * (fsynced by the embedded log; stored by JetStream). Publishing the same `eventId` twice
   * within the de-duplication window stores it once; the second append resolves, once the
   * first is durable, with the first's position and `duplicate: true`.
   */
  append(context: string, event: DomainEvent, options?: AppendOptions): Promise<AppendResult>;
  /** All events of one stream, oldest first, with its version. */
  readStream(context: string, streamId: string): Promise<{ events: RecordedEvent[]; version: number }>;
  /** The last event of one stream, or null when empty. */
  readLast(context: string, streamId: string): Promise<RecordedEvent | null>;
  /** Position of the newest event in `context` (0 when empty). */
  headPosition(context: string): Promise<number>;
  /**
   * Removes events from the log for good: their bytes are overwritten where they are stored,
   * and reads, follows and subscribers skip them from then on (a replay never meets them). For
   * content that must not outlive a deletion (docs/event-backbone.md, "Erasing events"). Their
   * positions are never reused and every other event keeps its own. Erasing a position that is
   * already erased, or that holds no event, is a no-op.
   */
  erase(context: string, positions: readonly number[]): Promise<void>;
}

export type EventHandler = (recorded: RecordedEvent) => Promise<void> | void;

export interface Subscription {
  /** Stops delivery; resolves after the in-flight handler (if any) has finished. */
  stop(): Promise<void>;
}

export interface DurableSubscriptionOptions {
  /** Durable name; every subscriber using the same name shares one cursor (a queue group). */
  durable: string;
  context: string;
  /** Where a durable that does not exist yet starts: every event, or only those appended from now on. */
  startAt: 'beginning' | 'new';
  handler: EventHandler;
  /** How many unacknowledged events may be in flight per subscriber. Default 1 keeps stream order. */
  maxInFlight?: number;
  /** Delay before an event whose handler threw is delivered again. Default 200 ms. */
  retryDelayMs?: number;
}

export interface FollowOptions {
  context: string;
  /** Deliver events with position > afterPosition, in position order. */
  afterPosition: number;
  handler: EventHandler;
  /** Delay before a handler that threw is retried with the same event. Default 200 ms. */
  retryDelayMs?: number;
}

export interface EventBus extends EventStore {
  /**
   * At-least-once delivery through a durable consumer shared by every subscriber with the
   * same `durable` name: each event is handled by one of them, and acknowledged only after
   * the handler resolves. A handler that throws gets the event again later.
   */
  subscribe(options: DurableSubscriptionOptions): Promise<Subscription>;
  /**
   * An ordered, per-process read of one context from a position the caller keeps, used by
   * projections that store their own checkpoint beside their data (so wiping the read
   * model and following from 0 rebuilds it). Stays live: new events keep arriving.
   */
  follow(options: FollowOptions): Promise<Subscription>;
  close(): Promise<void>;
}

/**
 * The log as services see it (`Ports['bus']`): what a context's appends take and its reads
 * give are that context's events (`EventOf<C>`), so handlers and projections switch on
 * `event.type` without casts and the compiler checks each case's payload. The adapters keep the
 * untyped `EventBus`; the composition root is the one place the two meet.
 */
export interface ContextEventStore {
  readonly deduplicatesForever?: boolean;
  append<C extends Context>(context: C, event: EventOf<C>, options?: AppendOptions): Promise<AppendResult>;
  readStream<C extends Context>(
    context: C,
    streamId: string,
  ): Promise<{ events: RecordedEvent<EventOf<C>>[]; version: number }>;
  readLast<C extends Context>(context: C, streamId: string): Promise<RecordedEvent<EventOf<C>> | null>;
  headPosition(context: Context): Promise<number>;
  erase(context: Context, positions: readonly number[]): Promise<void>;
}

export interface ContextEventBus extends ContextEventStore {
  subscribe<C extends Context>(
    options: Omit<DurableSubscriptionOptions, 'context' | 'handler'> & {
      context: C;
      handler: (recorded: RecordedEvent<EventOf<C>>) => Promise<void> | void;
    },
  ): Promise<Subscription>;
  follow<C extends Context>(
    options: Omit<FollowOptions, 'context' | 'handler'> & {
      context: C;
      handler: (recorded: RecordedEvent<EventOf<C>>) => Promise<void> | void;
    },
  ): Promise<Subscription>;
  close(): Promise<void>;
}
