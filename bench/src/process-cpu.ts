import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * CPU seconds (user + system, every thread: the event loop, V8's GC helpers, libuv's pool) used
 * so far by a process and all its live descendants, read from Linux's /proc. CPU time per
 * message is far steadier than latency on a shared, noisy machine: it says whether a change
 * made the server cheaper even when a run's tail is spoilt by a neighbour.
 */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** The command name (`/proc/<pid>/comm`, as `stat` gives it). */
  name: string;
  ticks: number;
}

/** `/proc/<pid>/stat`: the command name (field 2) may hold spaces, so fields are counted after its ')'. */
const readStat = async (pid: string): Promise<ProcStat | null> => {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After the name: state(3) ppid(4) ... utime(14) stime(15), so index = field - 3.
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return null; // exited meanwhile
  }
};

const processTable = async (): Promise<ProcStat[]> => {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  return (await Promise.all(pids.map(readStat))).filter((s): s is ProcStat => s !== null);
};

/** The process `rootPid` and every live descendant. */
const treeOf = (stats: ProcStat[], rootPid: number): ProcStat[] => {
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  const tree: ProcStat[] = [];
  const visit = (stat: ProcStat) => {
    tree.push(stat);
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  const root = stats.find((s) => s.pid === rootPid);
  if (root) visit(root);
  return tree;
};

/** The resident memory (VmRSS) of a process and all its live descendants, in bytes. */
export const residentBytesOf = async (rootPid: number): Promise<number> => {
  let bytes = 0;
  for (const stat of treeOf(await processTable(), rootPid)) {
    try {
      const status = await readFile(`/proc/${stat.pid}/status`, 'utf8');
      bytes += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // exited meanwhile
    }
  }
  return bytes;
};

export const cpuSecondsOf = async (rootPid: number): Promise<number> =>
  treeOf(await processTable(), rootPid).reduce((sum, stat) => sum + stat.ticks, 0) / ticksPerSecond;

/**
 * What a Veil process runs: the cluster's launcher, or the services a process hosts
 * (`VEIL_SERVICES`, every one when unset) and, for a realtime replica, its port; any other
 * process (npm, a shell) by its command name.
 */
const labelOf = async (stat: ProcStat): Promise<string> => {
  try {
    const [cmdline, environ] = await Promise.all(
      ['cmdline', 'environ'].map(async (file) =>
        (await readFile(`/proc/${stat.pid}/${file}`, 'utf8')).split('\0'),
      ),
    );
    if (cmdline!.some((arg) => arg.endsWith('bin/cluster.ts'))) return 'launcher';
    if (!cmdline!.some((arg) => arg.endsWith('bin/veil.ts'))) return stat.name;
    const value = (name: string) =>
      environ!.find((line) => line.startsWith(`${name}=`))?.slice(name.length + 1);
    const services = value('VEIL_SERVICES');
    if (!services) return 'veil';
    return services === 'realtime' ? `realtime :${value('PORT')}` : services;
  } catch {
    return stat.name; // exited meanwhile
  }
};

/**
 * CPU seconds so far of each process of a tree, by what it runs, and of the servers outside it
 * that the tree uses (NATS, Redis: found by command name, so they must serve only this run for
 * the figures to mean anything).
 */
export const cpuSecondsByProcess = async (
  rootPid: number,
  outside: readonly string[] = [],
): Promise<Record<string, number>> => {
  const stats = await processTable();
  const seconds: Record<string, number> = {};
  const add = (label: string, ticks: number) =>
    (seconds[label] = (seconds[label] ?? 0) + ticks / ticksPerSecond);
  for (const stat of treeOf(stats, rootPid)) add(await labelOf(stat), stat.ticks);
  for (const stat of stats) if (outside.includes(stat.name)) add(stat.name, stat.ticks);
  return seconds;
};
