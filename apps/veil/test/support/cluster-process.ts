import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePortBlock } from '@veil/test-env';
import { allClusterPortOffsets } from '../../src/cluster-ports.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** Whether the process on `port` answers its readiness probe. */
export const ready = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
  } catch {
    return false;
  }
};

export interface ClusterProcess {
  /** The gateway's port; every other process's is this plus its offset (cluster-ports.ts). */
  base: number;
  child: ChildProcess;
  /** Everything the launcher printed so far (its own lines and its processes'). */
  output(): string;
  /** The process id of the newest start of a supervised process (`message`, `realtime-1`...). */
  pidOf(name: string): number;
  /** Kills what is left and removes the data dir. */
  destroy(): Promise<void>;
}

/**
 * `npm run cluster` as a child process, on a free block of ports and a data dir of its own,
 * resolved once every process answers ready.
 */
export const startCluster = async (env: Record<string, string>): Promise<ClusterProcess> => {
  const base = await freePortBlock(allClusterPortOffsets);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-cluster-'));
  const child = spawn(process.execPath, ['apps/veil/src/bin/cluster.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(base), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const cluster: ClusterProcess = {
    base,
    child,
    output: () => output,
    pidOf(name) {
      const starts = [...output.matchAll(new RegExp(`^${name} \\| started \\(pid (\\d+)\\)$`, 'gm'))];
      return Number(starts.at(-1)?.[1]);
    },
    async destroy() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + 60_000;
  while (!(await Promise.all(allClusterPortOffsets.map((offset) => ready(base + offset)))).every(Boolean)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await cluster.destroy();
      throw new Error(`cluster did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return cluster;
};
