import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Veil under test runs in its own process (`npm start`'s entry point), so the load generator
 * does not share its event loop. Embedded mode by default; `env` can name cluster adapters.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');

export interface VeilProcess {
  url: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

export const startVeilProcess = async (
  port: number,
  env: Record<string, string> = {},
): Promise<VeilProcess> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-bench-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // BENCH_PROF=1: a V8 CPU profile of the Veil process, for Chrome DevTools or speedscope.
      ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=bench-results/profiles'] : []),
      '--import',
      'tsx',
      'packages/runtime/src/bin/veil.ts',
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        LOGIN_ATTEMPTS_PER_IP: '1000000',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('Veil did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid!,
    dataDir,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
