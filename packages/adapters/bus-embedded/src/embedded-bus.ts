import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DomainError, isValidStreamId } from '@veil/contracts';
import type { EventBus, Logger, Subscription } from '@veil/ports';
import { openContextLog, type ContextLog, type ContextLogOptions } from './context-log.ts';
import { warnIfLogOutgrowsHeap } from './memory-check.ts';
import { slowDiskReporter } from './slow-disk.ts';
import { createDurableGroup, followLog, type DurableGroup } from './subscriptions.ts';

export interface EmbeddedBusOptions {
  /** Folder of the log files, one `<context>.jsonl` per context. */
  dataDir: string;
  log: Logger;
  /** Deliveries of one event to a durable group before it is dropped. Default 10. */
  maxDeliveries?: number;
  /** The heap the log must fit in (default: this process's limit); for tests. */
  heapLimitBytes?: number;
  /** A durable write slower than this is reported (default 100 ms; `slow-disk.ts`). */
  slowWriteMs?: number;
  /** Told of every group commit once it is durable (metrics). */
  onCommit?(context: string, milliseconds: number, events: number): void;
  /** Opens a log file (default: the file system); tests wrap it to inject disk faults. */
  openFile?: ContextLogOptions['openFile'];
}

/**
 * The embedded event bus: the EventBus port over fsynced files, for the single-process mode.
 * Durable groups keep their cursors in memory: after a restart a group starts again from its
 * `startAt` policy. (Nothing subscribes to one today; projections follow the log from the
 * checkpoint they store with their read models.)
 */
export const createEmbeddedBus = async (options: EmbeddedBusOptions): Promise<EventBus> => {
  await mkdir(options.dataDir, { recursive: true });
  await warnIfLogOutgrowsHeap(options.dataDir, options.log, options.heapLimitBytes);
  const logs = new Map<string, Promise<ContextLog>>();
  const groups = new Map<string, DurableGroup>();
  const subscriptions = new Set<Subscription>();
  const maxDeliveries = options.maxDeliveries ?? 10;
  const onSlowWrite = slowDiskReporter(options.log);

  const logOf = (context: string): Promise<ContextLog> => {
    if (!/^[a-z0-9-]+$/.test(context))
      throw new DomainError('VALIDATION_FAILED', `Invalid context: ${context}`);
    let log = logs.get(context);
    if (!log)
      logs.set(
        context,
        (log = openContextLog(context, path.join(options.dataDir, `${context}.jsonl`), {
          log: options.log,
          onSlowWrite: (milliseconds, events) => onSlowWrite(context, milliseconds, events),
          ...(options.onCommit && {
            onCommit: (milliseconds: number, events: number) =>
              options.onCommit!(context, milliseconds, events),
          }),
          ...(options.slowWriteMs !== undefined && { slowWriteMs: options.slowWriteMs }),
          ...(options.openFile && { openFile: options.openFile }),
        })),
      );
    return log;
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
    async append(context, event, appendOptions = {}) {
      if (!isValidStreamId(event.streamId))
        throw new DomainError('VALIDATION_FAILED', `Invalid stream id: ${event.streamId}`);
      return (await logOf(context)).append(event, appendOptions.expectedVersion);
    },
    async readStream(context, streamId) {
      const log = await logOf(context);
      const positions = log.streamPositions(streamId);
      return { events: positions.map((p) => log.at(p)!), version: positions.at(-1) ?? 0 };
    },
    async readLast(context, streamId) {
      const log = await logOf(context);
      const last = log.streamPositions(streamId).at(-1);
      return last ? log.at(last) : null;
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
      // A log that could not be opened (damaged on disk) has nothing to close.
      const opened = await Promise.all([...logs.values()].map((log) => log.catch(() => null)));
      await Promise.all(opened.map((log) => log?.close()));
      logs.clear();
    },
  };
};
