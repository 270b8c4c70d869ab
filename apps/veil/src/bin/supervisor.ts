import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface SupervisorOptions {
  /** The first restart waits this long; each quick crash after it doubles the wait. */
  firstDelayMs?: number;
  /** The longest wait between restarts. */
  maxDelayMs?: number;
  /** A process that ran this long before it died is restarted after the first delay again. */
  stableAfterMs?: number;
  /** Where the supervisor's own lines go. */
  say?(line: string): void;
}

/** Copies a child's output line by line, each line led by the child's name. */
const prefixLines = (from: Readable, name: string, to: Writable) =>
  createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${name} | ${line}\n`));

/**
 * Keeps a set of processes running, as Kubernetes would: one that dies (a crash, kill -9) is
 * started again after a delay that doubles with each quick crash (1 s, 2 s, 4 s ... up to 30 s) and
 * starts over once it has run a minute. Every start and exit is printed. `stop` ends them all.
 */
export const supervise = (
  children: readonly ChildSpec[],
  {
    firstDelayMs = 1_000,
    maxDelayMs = 30_000,
    stableAfterMs = 60_000,
    say = console.log,
  }: SupervisorOptions = {},
) => {
  let stopping = false;
  const running = new Map<string, ChildProcess>();
  const pendingRestarts = new Set<NodeJS.Timeout>();

  const start = (spec: ChildSpec, quickCrashes: number) => {
    const startedAt = Date.now();
    const child = spawn(spec.command, spec.args, { env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.set(spec.name, child);
    prefixLines(child.stdout!, spec.name, process.stdout);
    prefixLines(child.stderr!, spec.name, process.stderr);
    say(`${spec.name} | started (pid ${child.pid})`);
    child.once('exit', (code, signal) => {
      running.delete(spec.name);
      if (stopping) return;
      const crashes = Date.now() - startedAt >= stableAfterMs ? 0 : quickCrashes;
      const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** crashes);
      say(`${spec.name} | exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
      const timer = setTimeout(() => {
        pendingRestarts.delete(timer);
        if (!stopping) start(spec, crashes + 1);
      }, delay);
      pendingRestarts.add(timer);
    });
  };
  for (const spec of children) start(spec, 0);

  return {
    /** Sends `signal` to every process and resolves once all have exited. */
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      stopping = true;
      for (const timer of pendingRestarts) clearTimeout(timer);
      await Promise.all(
        [...running.values()].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill(signal);
            }),
        ),
      );
    },
  };
};
