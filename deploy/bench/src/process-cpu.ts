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
  ticks: number;
}

/** `/proc/<pid>/stat`: the command name (field 2) may hold spaces, so fields are counted after its ')'. */
const readStat = async (pid: string): Promise<ProcStat | null> => {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After the name: state(3) ppid(4) ... utime(14) stime(15), so index = field - 3.
    return { pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // exited meanwhile
  }
};

export const cpuSecondsOf = async (rootPid: number): Promise<number> => {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = (await Promise.all(pids.map(readStat))).filter((s): s is ProcStat => s !== null);
  const children = new Map<number, ProcStat[]>();
  for (const stat of stats) {
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat);
    else children.set(stat.ppid, [stat]);
  }
  let ticks = 0;
  const visit = (stat: ProcStat) => {
    ticks += stat.ticks;
    for (const child of children.get(stat.pid) ?? []) visit(child);
  };
  const root = stats.find((s) => s.pid === rootPid);
  if (root) visit(root);
  return ticks / ticksPerSecond;
};
