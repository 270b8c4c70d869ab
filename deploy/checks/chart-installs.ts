/**
 * The `helm install` commands in the chart's README, read back so that the checks test the
 * installs the README documents, not a copy of them that could drift.
 */

export interface ValueFlag {
  /** `--set` (helm types the value) or `--set-file` (the value is a file's content). */
  kind: 'set' | 'set-file';
  key: string;
  /** As written; a shell substitution such as `$(openssl rand -hex 16)` is replaced by a stand-in. */
  value: string;
}

export interface ReadmeInstall {
  /** The heading the command stands under. */
  title: string;
  release: string;
  chart: string;
  flags: ValueFlag[];
}

/** What a generated secret looks like to the chart: 32 hex characters, as `openssl rand -hex 16` prints. */
export const generatedSecretStandIn = '0123456789abcdef0123456789abcdef';

const unquote = (text: string) => text.replace(/^'(.*)'$/s, '$1').replace(/^"(.*)"$/s, '$1');

const parseFlag = (line: string): ValueFlag | undefined => {
  const match = /^--(set|set-file)\s+(.+?)\s*\\?$/.exec(line.trim());
  if (!match) return undefined;
  const assignment = unquote(match[2]!);
  const at = assignment.indexOf('=');
  const key = assignment.slice(0, at);
  const written = unquote(assignment.slice(at + 1));
  const value = written.includes('$(') ? generatedSecretStandIn : written;
  return { kind: match[1] === 'set-file' ? 'set-file' : 'set', key, value };
};

export const readmeInstalls = (readme: string): ReadmeInstall[] => {
  const installs: ReadmeInstall[] = [];
  let title = '';
  let current: ReadmeInstall | undefined;
  for (const line of readme.split('\n')) {
    if (line.startsWith('#')) title = line.replace(/^#+\s*/, '');
    const install = /^helm install (\S+) (\S+)/.exec(line.trim());
    if (install) {
      current = { title, release: install[1]!, chart: install[2]!, flags: [] };
      installs.push(current);
      continue;
    }
    const flag = current && parseFlag(line);
    if (flag) current!.flags.push(flag);
    else current = undefined;
  }
  return installs;
};

/** `a.b[0].c` → ['a', 'b', 0, 'c'] */
const keyPath = (key: string) =>
  key.split('.').flatMap((part) => {
    const [name, ...indexes] = part.split('[');
    return [name!, ...indexes.map((index) => Number(index.replace(']', '')))];
  });

/** helm's typing of a `--set` value: booleans, integers, else a string. */
const typed = (value: string): unknown =>
  value === 'true' ? true : value === 'false' ? false : /^-?\d+$/.test(value) ? Number(value) : value;

/** The values the flags set, as an object (a `--set-file` value is `readFile(path)`). */
export const flagsToValues = (
  flags: ValueFlag[],
  readFile: (path: string) => string,
): Record<string, unknown> => {
  const values: Record<string, unknown> = {};
  for (const flag of flags) {
    const path = keyPath(flag.key);
    let node: Record<string | number, unknown> = values;
    path.forEach((segment, i) => {
      if (i === path.length - 1) {
        node[segment] = flag.kind === 'set-file' ? readFile(flag.value) : typed(flag.value);
        return;
      }
      node[segment] ??= typeof path[i + 1] === 'number' ? [] : {};
      node = node[segment] as Record<string | number, unknown>;
    });
  }
  return values;
};

/** Values merged as helm merges a values file over the chart's: maps key by key, anything else replaced. */
const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const deepMerge = <T>(base: T, over: unknown): T => {
  if (!isMap(base) || !isMap(over)) return over as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out as T;
};
