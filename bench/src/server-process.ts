import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { embeddedEnv } from '@veil/test-env';

/**
 * A server under test in a process of its own (Veil, or the relay it is compared with), so the
 * load generator never shares its event loop. Resolves once every `readyUrls/readyz` answers.
 */
export interface ServerProcess {
  pid: number;
  stop(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

const isReady = async (url: string) => {
  try {
    return (await fetch(`${url}/readyz`)).ok;
  } catch {
    return false; // not listening yet
  }
};

export const spawnServer = async (
  entry: string,
  readyUrls: string[],
  env: Record<string, string>,
  stopSignal: NodeJS.Signals,
  /** The server's own Node flags (Veil's `veilNodeFlags`, as `npm start` gives them). */
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> => {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_PROF=1: a V8 CPU profile of each server process, for Chrome DevTools or speedscope.
      ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench-results/profiles'] : []),
      ...nodeFlags,
      // BENCH_NODE_FLAGS="--flag ...": V8/Node flags for the servers only (not the generator),
      // after the server's own, so the last of a flag given twice wins;
      // BENCH_STDOUT=1 shows what they print there (`--trace-gc`, say).
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      entry,
    ],
    {
      cwd: repoRoot,
      env: { ...embeddedEnv(), ...env },
      stdio: ['ignore', process.env.BENCH_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  const deadline = Date.now() + 90_000;
  while (!(await Promise.all(readyUrls.map(isReady))).every(Boolean)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${entry} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    pid: child.pid!,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(stopSignal);
      await exited;
    },
  };
};
