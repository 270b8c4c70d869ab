import type { Change, InlineProjections, InlineStep, RecordedEvent } from '@veil/ports';
import type { EventLog } from './event-log.ts';

/**
 * Turns read-model changes into what the log's writer companion stores inside a commit, and is
 * told once that commit is durable (the read store sharing the log's file does both).
 */
export interface CommitEncoder {
  encode(changes: readonly Change[]): unknown;
  committed(payload: unknown): void;
}

/**
 * Projections run inside the log's commits (the port's `InlineProjections`): before each
 * commit, every attached step makes its read-model changes from the commit's events, and the
 * writer stores them in the transaction that appends those events. A step joins between two
 * commits, once caught up with the log, so it never misses an event nor sees one twice.
 */
export const inlineProjections = (log: EventLog, encoder: CommitEncoder): InlineProjections => {
  const steps = new Set<InlineStep>();
  /** The steps that prepared the commit being made, and what was sent for them. */
  let involved: InlineStep[] = [];
  let payload: unknown;

  log.withEveryCommit({
    async prepare(events: readonly RecordedEvent[]) {
      involved = [];
      payload = undefined;
      const changes: Change[] = [];
      try {
        for (const step of steps) {
          const own = events.filter((recorded) => step.contexts.includes(recorded.context));
          if (!own.length) continue;
          involved.push(step);
          changes.push(...(await step.prepare(own)));
        }
        if (changes.length) payload = encoder.encode(changes);
      } catch (error) {
        for (const step of involved) step.settled(false);
        involved = [];
        throw error;
      }
      return payload;
    },
    settled(stored) {
      if (stored && payload !== undefined) encoder.committed(payload);
      for (const step of involved) step.settled(stored);
      involved = [];
      payload = undefined;
    },
  });

  return {
    attach: (step) =>
      log.betweenCommits(async () => {
        await step.catchUp();
        steps.add(step);
        return { detach: () => log.betweenCommits(async () => void steps.delete(step)) };
      }),
  };
};
