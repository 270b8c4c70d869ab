import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DomainError, isValidStreamId } from '@veil/contracts';
import type { EventBus, InlineProjections, Logger, MessageTimeline, Subscription } from '@veil/ports';
import { openEventLog, type ContextLog, type EventLogOptions } from './event-log.ts';
import { inlineProjections, type CommitEncoder } from './inline-projections.ts';
import { logFileName } from './log-database.ts';
import { createLogTimeline, messageTimelineIndexes } from './message-timeline.ts';
import { slowDiskReporter } from './slow-disk.ts';
import { createDurableGroup, followLog, type DurableGroup } from './subscriptions.ts';

export interface EmbeddedBusOptions {
  /** Folder of the log: `event-log.sqlite` (and the earlier `<context>.jsonl` files, imported at start). */
  dataDir: string;
  log: Logger;
  /** Deliveries of one event to a durable group before it is dropped. Default 10. */
  maxDeliveries?: number;
  /** A durable write slower than this is reported (default 100 ms; `slow-disk.ts`). */
  slowWriteMs?: number;
  /** Told of every group commit once it is durable (metrics). */
  onCommit?(context: string, milliseconds: number, events: number): void;
  /** For fault tests: the pages the log's file may still grow by (see `testing/limited-disk.ts`). */
  pageLimit?: EventLogOptions['pageLimit'];
  /**
   * A module that keeps another store's data in the log's file, on the log's writer thread
   * (`CommitCompanion` in log-writer.worker.ts): the read models, in embedded mode.
   */
  companion?: string;
  /**
   * Answers the message timeline from the log (`messageTimeline`), through indexes over its
   * message rows created at start (embedded mode, where no read model keeps it).
   */
  messageTimeline?: boolean;
}

/** The log's file and writer thread, as a store sharing them (`companion`) uses them. */
export interface SharedLogFile {
  file: string;
  /** Runs one of the companion's requests on the writer thread, in a transaction of its own. */
  request(request: unknown): Promise<unknown>;
  /** Projections run inside the log's commits, their changes encoded for the companion. */
  inlineProjections(encoder: CommitEncoder): InlineProjections;
}

export interface EmbeddedBus extends EventBus {
  /** Present when the bus was made with a `companion`. */
  readonly shared?: SharedLogFile;
  /** Present when the bus was made with `messageTimeline`. */
  readonly messageTimeline?: MessageTimeline;
}

/**
 * The embedded event bus: the EventBus port over a SQLite file on disk, for the single-process
 * mode. Durable groups keep their cursors in memory: after a restart a group starts again from
 * its `startAt` policy. (Nothing subscribes to one today; projections follow the log from the
 * checkpoint they store with their read models.)
 */
export const createEmbeddedBus = async (options: EmbeddedBusOptions): Promise<EmbeddedBus> => {
  await mkdir(options.dataDir, { recursive: true });
  const slowWriteMs = options.slowWriteMs ?? 100;
  const onSlowWrite = slowDiskReporter(options.log);
  const eventLog = await openEventLog(options.dataDir, {
    log: options.log,
    onCommit(context, milliseconds, events) {
      options.onCommit?.(context, milliseconds, events);
      if (milliseconds > slowWriteMs) onSlowWrite(context, milliseconds, events);
    },
    ...(options.pageLimit && { pageLimit: options.pageLimit }),
    ...(options.companion && { companion: options.companion }),
    ...(options.messageTimeline && { indexes: messageTimelineIndexes }),
  });
  let inline: InlineProjections | null = null;
  const shared: SharedLogFile | undefined = options.companion
    ? {
        file: path.join(options.dataDir, logFileName),
        request: (request) => eventLog.companionRequest(request),
        inlineProjections: (encoder) => (inline ??= inlineProjections(eventLog, encoder)),
      }
    : undefined;
  const groups = new Map<string, DurableGroup>();
  const subscriptions = new Set<Subscription>();
  const maxDeliveries = options.maxDeliveries ?? 10;

  const logOf = async (context: string): Promise<ContextLog> => {
    if (!/^[a-z0-9-]+$/.test(context))
      throw new DomainError('VALIDATION_FAILED', `Invalid context: ${context}`);
    return eventLog.context(context);
  };

  const track = (subscription: Subscription): Subscription => {
    subscriptions.add(subscription);
    return {
      async stop() {
        subscriptions.delete(subscription);
        await subscription.stop();
      },
    };
  };

  return {
    ...(shared && { shared }),
    ...(options.messageTimeline && { messageTimeline: createLogTimeline((work) => eventLog.query(work)) }),
    // Event ids are UNIQUE in the log's table, and an erased event keeps its id (log-database.ts).
    deduplicatesForever: true,
    async append(context, event, appendOptions = {}) {
      if (!isValidStreamId(event.streamId))
        throw new DomainError('VALIDATION_FAILED', `Invalid stream id: ${event.streamId}`);
      return (await logOf(context)).append(event, appendOptions.expectedVersion);
    },
    async readStream(context, streamId) {
      const events = (await logOf(context)).readStream(streamId);
      return { events, version: events.at(-1)?.position ?? 0 };
    },
    async readLast(context, streamId) {
      return (await logOf(context)).readLast(streamId);
    },
    async headPosition(context) {
      return (await logOf(context)).durableHead();
    },
    async erase(context, positions) {
      await (await logOf(context)).erase(positions);
    },
    async subscribe(subscribeOptions) {
      const log = await logOf(subscribeOptions.context);
      const key = `${subscribeOptions.context}/${subscribeOptions.durable}`;
      let group = groups.get(key);
      if (!group)
        groups.set(
          key,
          (group = createDurableGroup(log, subscribeOptions.startAt, options.log, maxDeliveries)),
        );
      return track(group.join(subscribeOptions));
    },
    async follow(followOptions) {
      return track(followLog(await logOf(followOptions.context), followOptions, options.log));
    },
    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()));
      subscriptions.clear();
      await eventLog.close();
    },
  };
};
