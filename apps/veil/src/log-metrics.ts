import type { Metrics } from '@veil/ports';

/**
 * What the event log reports about durability, as callbacks the bus adapters take in their
 * options. Only the adapter in use registers its metrics, so a scrape shows no empty families.
 */

/** The embedded log's group commits: one write and fsync for every append waiting. */
export const commitMetrics = (metrics: Metrics) => {
  const seconds = metrics.histogram<'context'>({
    name: 'veil_event_log_commit_duration_seconds',
    help: 'Embedded event log: time to write and fsync one group commit',
    labelNames: ['context'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
  const events = metrics.histogram<'context'>({
    name: 'veil_event_log_commit_events',
    help: 'Embedded event log: events made durable by one group commit',
    labelNames: ['context'],
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  });
  return (context: string, milliseconds: number, count: number) => {
    seconds.observe({ context }, milliseconds / 1000);
    events.observe({ context }, count);
  };
};

/** JetStream's publish acknowledgements: the event is stored (and synced, where the server is set to). */
export const publishMetrics = (metrics: Metrics) => {
  const seconds = metrics.histogram<'context' | 'outcome'>({
    name: 'veil_jetstream_publish_duration_seconds',
    help: 'JetStream: time from publishing an append until the server acknowledged (stored) or refused it',
    labelNames: ['context', 'outcome'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  return (context: string, milliseconds: number, stored: boolean) =>
    seconds.observe({ context, outcome: stored ? 'stored' : 'refused' }, milliseconds / 1000);
};
