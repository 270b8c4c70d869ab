import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ReplicaConfig } from './realtime-replica.ts';

const script = fileURLToPath(new URL('./realtime-replica.ts', import.meta.url));

export interface ReplicaProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown code runs, exactly like a crashed pod. Resolves once it is gone. */
  kill(): Promise<void>;
}

/** Starts realtime-replica.ts in a child process and resolves with its URL once it is ready. */
export const spawnReplica = async (config: ReplicaConfig, timeoutMs = 30_000): Promise<ReplicaProcess> => {
  const child = spawn(process.execPath, [script, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('replica did not start in time')), timeoutMs);
      child.once('exit', (code, signal) => reject(new Error(`replica exited early (${code ?? signal})`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = /^READY (\S+)$/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
    });
    return { url, child, kill };
  } catch (error) {
    await kill();
    throw error;
  }
};
