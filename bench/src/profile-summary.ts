import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

/**
 * `npm run bench:profile -- <file.cpuprofile> [--from s --to s]`: what a V8 CPU profile (from
 * `BENCH_PROF=1 npm run bench`) says about the load window. A profile spans the whole process
 * life, mostly idle set-up, so whole-profile shares mislead (they once hid a saturated main
 * thread behind "80 % idle"). This prints how busy each second was, then the heaviest functions
 * and packages by self time within the window: by default the seconds at least half busy.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const packageOf = ({ url, functionName }: ProfileNode['callFrame']) => {
  if (!url) return functionName;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const own = /\/((?:packages|services|web|deploy)\/(?:adapters\/)?[^/]+)\//.exec(url);
  return own ? own[1]! : url;
};

const top = (totals: Map<string, number>, all: number, count: number) =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${((100 * micros) / all).toFixed(1).padStart(5)} %  ${name}`)
    .join('\n');

const main = async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, top: { type: 'string', default: '25' } },
  });
  if (!positionals[0]) throw new Error('usage: npm run bench:profile -- <file.cpuprofile> [--from s --to s]');
  const profile = JSON.parse(await readFile(positionals[0], 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

  // Each sample, with the second of the profile it falls in.
  let clock = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    clock += profile.timeDeltas[i]!;
    const frame = nodes.get(id)!.callFrame;
    return { frame, micros: profile.timeDeltas[i]!, second: Math.floor((clock - profile.startTime) / 1e6) };
  });

  const seconds = new Map<number, { busy: number; all: number }>();
  for (const { frame, micros, second } of samples) {
    const bucket = seconds.get(second) ?? { busy: 0, all: 0 };
    bucket.all += micros;
    if (frame.functionName !== '(idle)') bucket.busy += micros;
    seconds.set(second, bucket);
  }
  const busyShare = (s: number) => seconds.get(s)!.busy / seconds.get(s)!.all;
  console.log('busy share per second:');
  console.log([...seconds.keys()].map((s) => `${s}:${Math.round(100 * busyShare(s))}`).join(' '));

  // The load window: the longest run of consecutive seconds at least half busy.
  let window = { from: 0, to: -1 };
  let runStart: number | null = null;
  const last = Math.max(...seconds.keys());
  for (let s = 0; s <= last + 1; s++) {
    const loaded = seconds.has(s) && busyShare(s) >= 0.5;
    if (loaded && runStart === null) runStart = s;
    if (!loaded && runStart !== null) {
      if (s - 1 - runStart > window.to - window.from) window = { from: runStart, to: s - 1 };
      runStart = null;
    }
  }
  const from = Number(values.from ?? window.from);
  const to = Number(values.to ?? window.to);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let all = 0;
  for (const { frame, micros, second } of samples) {
    if (second < from || second > to) continue;
    all += micros;
    const where = frame.url.replace(/.*node_modules\//, '').replace(`file://${process.cwd()}/`, '');
    const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    byPackage.set(packageOf(frame), (byPackage.get(packageOf(frame)) ?? 0) + micros);
  }
  const count = Number(values.top);
  console.log(`\nseconds ${from}-${to}, self time by package:\n${top(byPackage, all, count)}`);
  console.log(`\nself time by function:\n${top(byFunction, all, count)}`);
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
