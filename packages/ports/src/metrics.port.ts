/**
 * Numbers a process exposes for Prometheus at `/metrics`. Services and the kernel describe what
 * they measure here; only @veil/app knows how it is exported. Asking twice for the same name
 * returns the same metric, so replicas of a service in one process share it.
 *
 * Names carry the `veil_` prefix and their unit (`_seconds`, `_total`, `_events`). Label values
 * must come from a small, known set: route templates, service and operation names, error codes,
 * contexts; never a user id, a chat id or a raw URL, each of which would add a series per value.
 */
export type MetricLabels<L extends string> = Partial<Record<L, string>>;

export interface MetricSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
}

export interface HistogramSpec<L extends string> extends MetricSpec<L> {
  /** Upper bounds of the buckets, in the metric's unit. */
  buckets?: readonly number[];
}

export interface Counter<L extends string = never> {
  inc(labels?: MetricLabels<L>, value?: number): void;
}

export interface Gauge<L extends string = never> {
  set(labels: MetricLabels<L>, value: number): void;
  /**
   * Reads the value of one label set when the process is scraped, not before (a lag, a count of
   * open sockets). Returns a function that stops reading it and drops the series.
   */
  sampleOnScrape(labels: MetricLabels<L>, read: () => number | Promise<number>): () => void;
}

export interface Histogram<L extends string = never> {
  observe(labels: MetricLabels<L>, value: number): void;
}

export interface Metrics {
  counter<L extends string = never>(spec: MetricSpec<L>): Counter<L>;
  gauge<L extends string = never>(spec: MetricSpec<L>): Gauge<L>;
  histogram<L extends string = never>(spec: HistogramSpec<L>): Histogram<L>;
}
