import { DomainError, type Context, type EventOf } from '@veil/contracts';
import type { ContextEventStore } from '@veil/ports';

/**
 * Emmett-style aggregates: state is a left fold of the stream's events (`evolve`), and a
 * command appends with the version it decided on. A concurrent writer makes the append fail
 * with VERSION_CONFLICT; `withRetry` re-reads and decides again a bounded number of times.
 */
export interface Aggregate<S, C extends Context> {
  context: C;
  initialState: () => S;
  evolve: (state: S, event: EventOf<C>) => S;
}

export const loadAggregate = async <S, C extends Context>(
  store: ContextEventStore,
  aggregate: Aggregate<S, C>,
  streamId: string,
): Promise<{ state: S; version: number }> => {
  const { events, version } = await store.readStream(aggregate.context, streamId);
  const state = events.reduce((s, recorded) => aggregate.evolve(s, recorded.event), aggregate.initialState());
  return { state, version };
};

export const isVersionConflict = (error: unknown): boolean =>
  error instanceof DomainError && error.code === 'VERSION_CONFLICT';

/** Runs `attempt` again when it fails with VERSION_CONFLICT, at most `retries` more times. */
export const withRetry = async <T>(attempt: () => Promise<T>, retries = 5): Promise<T> => {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isVersionConflict(error) || tries >= retries) throw error;
    }
  }
};
