/** One sample of Prometheus' text format: `name{label="value",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Families declared with `# TYPE`, by name, with their type. */
  families: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const samplePattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export const parsePrometheusText = (text: string): Scrape => {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) families.set(type[1]!, type[2]!);
    const match = line.startsWith('#') ? null : samplePattern.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(labelPattern)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    families,
    samples,
    find,
    value(name, labels) {
      const found = find(name, labels);
      if (found.length > 1)
        throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
};

/** GETs a process's `/metrics` and parses it. */
export const scrape = async (baseUrl: string): Promise<Scrape> => {
  const response = await fetch(`${baseUrl}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  if (!response.headers.get('content-type')?.startsWith('text/plain')) {
    throw new Error(`/metrics is not Prometheus text: ${response.headers.get('content-type')}`);
  }
  return parsePrometheusText(await response.text());
};
