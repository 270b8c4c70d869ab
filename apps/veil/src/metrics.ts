import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger, MetricLabels, Metrics } from '@veil/ports';

/** The process's metrics and their Prometheus text, served at `/metrics`. */
export interface MetricsRegistry {
  metrics: Metrics;
  contentType: string;
  scrape(): Promise<string>;
}

type Labels = Record<string, string>;
type Kind = 'counter' | 'gauge' | 'histogram';

const labelKey = (labels: Labels) =>
  JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));

/**
 * prom-client's default metrics (CPU, memory, event-loop lag, GC, handles) describe the OS
 * process, so they are collected once per process, however many Veils it runs, and shown by each.
 */
let processRegistry: Registry | undefined;
const processMetrics = (): Registry => {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
};

/**
 * The metrics port over prom-client: a registry per Veil started (tests run several in one
 * process; each scrapes only its own metrics), served after the process's default metrics.
 */
export const createMetricsRegistry = (log: Logger): MetricsRegistry => {
  const registry = new Registry();
  const defaults = processMetrics();
  const made = new Map<string, { kind: Kind; metric: unknown }>();

  /** One metric per name: asking again returns the first, asking for another kind is a bug. */
  const once = <T>(kind: Kind, name: string, make: () => T): T => {
    const existing = made.get(name);
    if (existing) {
      if (existing.kind !== kind) throw new Error(`metric ${name} is a ${existing.kind}, not a ${kind}`);
      return existing.metric as T;
    }
    const metric = make();
    made.set(name, { kind, metric });
    return metric;
  };

  const metrics: Metrics = {
    counter: (spec) =>
      once('counter', spec.name, () => {
        const counter = new Counter<string>({
          name: spec.name,
          help: spec.help,
          labelNames: [...(spec.labelNames ?? [])],
          registers: [registry],
        });
        return { inc: (labels = {}, value = 1) => counter.inc(labels as Labels, value) };
      }),

    gauge: (spec) =>
      once('gauge', spec.name, () => {
        const sampled = new Map<string, { labels: Labels; read: () => number | Promise<number> }>();
        const gauge = new Gauge<string>({
          name: spec.name,
          help: spec.help,
          labelNames: [...(spec.labelNames ?? [])],
          registers: [registry],
          async collect() {
            await Promise.all(
              [...sampled.values()].map(async ({ labels, read }) => {
                try {
                  gauge.set(labels, await read());
                } catch (error) {
                  // The previous value stays; one failed reading must not fail the whole scrape.
                  log.warn({ err: error, metric: spec.name, labels }, 'a metric could not be read');
                }
              }),
            );
          },
        });
        return {
          set: (labels: MetricLabels<string>, value: number) => gauge.set(labels as Labels, value),
          sampleOnScrape(labels: MetricLabels<string>, read: () => number | Promise<number>) {
            const key = labelKey(labels as Labels);
            const entry = { labels: labels as Labels, read };
            sampled.set(key, entry);
            return () => {
              if (sampled.get(key) !== entry) return;
              sampled.delete(key);
              gauge.remove(labels as Labels);
            };
          },
        };
      }),

    histogram: (spec) =>
      once('histogram', spec.name, () => {
        const histogram = new Histogram<string>({
          name: spec.name,
          help: spec.help,
          labelNames: [...(spec.labelNames ?? [])],
          ...(spec.buckets ? { buckets: [...spec.buckets] } : {}),
          registers: [registry],
        });
        return {
          observe: (labels: MetricLabels<string>, value: number) =>
            histogram.observe(labels as Labels, value),
        };
      }),
  };

  return {
    metrics,
    contentType: registry.contentType,
    scrape: async () => `${await defaults.metrics()}\n${await registry.metrics()}`,
  };
};
