import type { ContextEventBus, Metrics } from '@veil/ports';
import type { ProjectionDefinition, RunningProjection } from './projection.ts';

export interface ProjectionMetrics {
  /** Counts an event the projection set aside instead of applying (`veil_parked_events_total`). */
  parked(context: string): void;
  /** Drops this projection's lag series (a stopped projection has no lag). */
  stop(): void;
}

/**
 * What a running projection exposes: how far behind the log it is, per context, read when the
 * process is scraped (the log's head position minus the projection's applied position), and how
 * many events it has parked. The parked counter starts at 0 for every projection and context, so
 * dashboards and alerts see the series before the first event is ever parked.
 */
export const measureProjection = (
  deps: { bus: Pick<ContextEventBus, 'headPosition'>; metrics: Metrics },
  definition: Pick<ProjectionDefinition, 'name' | 'contexts'>,
  projection: Pick<RunningProjection, 'position'>,
): ProjectionMetrics => {
  const lag = deps.metrics.gauge<'projection' | 'context'>({
    name: 'veil_projection_lag_events',
    help: "Events in the log that a projection has not applied yet: the context's head position minus the projection's",
    labelNames: ['projection', 'context'],
  });
  const parked = deps.metrics.counter<'projection' | 'context'>({
    name: 'veil_parked_events_total',
    help: 'Events a projection could not apply and set aside for an operator instead of stalling on them',
    labelNames: ['projection', 'context'],
  });
  const projectionName = definition.name;
  const stops = definition.contexts.map((context) => {
    parked.inc({ projection: projectionName, context }, 0);
    return lag.sampleOnScrape({ projection: projectionName, context }, async () =>
      Math.max(0, (await deps.bus.headPosition(context)) - projection.position(context)),
    );
  });
  return {
    parked: (context) => parked.inc({ projection: projectionName, context }),
    stop() {
      for (const stop of stops) stop();
    },
  };
};
