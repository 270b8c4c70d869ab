import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The embedded app as its own OS process (`apps/veil/src/bin/veil.ts`, as `npm start`
 * runs it) on a given DATA_DIR, with its JSON log lines collected, so a test can stop it the
 * way an operator or a crash does and start it again.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export interface LogLine {
  msg: string;
  [field: string]: unknown;
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of an embedded process: nothing that would select a cluster component. */
const embeddedEnv = (dataDir: string, extra: Record<string, string> = {}) => {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, ...extra };
  for (const name of ['NATS_URL', 'REDIS_URL', 'MONGODB_URL', 'S3_ENDPOINT', 'VEIL_SERVICES', 'PORT']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
};

const start = (script: string, args: string[], dataDir: string, extra?: Record<string, string>) =>
  spawn(process.execPath, [script, ...args], {
    cwd: repoRoot,
    env: embeddedEnv(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });

export interface VeilProcess {
  url: string;
  logs: LogLine[];
  /** Sends the signal and resolves with the exit code (null after SIGKILL). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
}

/** Starts Veil and resolves once it serves, or rejects with what it printed if it exits first. */
export const spawnVeil = (dataDir: string): Promise<VeilProcess> => {
  const child = start('apps/veil/src/bin/veil.ts', [], dataDir, {
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
  });
  const logs: LogLine[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as LogLine;
      logs.push(entry);
      // The JSON line Veil logs once a signal would stop it cleanly.
      const running = /^Veil is running on (http:\/\/\S+)$/.exec(entry.msg);
      if (running)
        resolve({
          url: running[1]!,
          logs,
          async stop(signal = 'SIGTERM') {
            child.kill(signal);
            return exited;
          },
        });
    });
    void exited.then((code) =>
      reject(Object.assign(new Error(`Veil exited (${code}) before serving:\n${stderr}`), { code, stderr })),
    );
  });
};

/** Runs Veil once and expects it to fail at start: its exit code and output. */
export const failingStart = async (dataDir: string): Promise<CommandResult> =>
  run(start('apps/veil/src/bin/veil.ts', [], dataDir, { HOST: '127.0.0.1', PORT: '0' }));

/** `npm run rebuild -- <args>` on a data dir. */
export const rebuild = (dataDir: string, args: string[] = []): Promise<CommandResult> =>
  run(start('apps/veil/src/bin/rebuild.ts', args, dataDir));

const run = (child: ReturnType<typeof start>): Promise<CommandResult> =>
  new Promise((resolve) => {
    // A command that should have ended by now is stopped, so the test fails instead of hanging.
    setTimeout(() => child.kill('SIGKILL'), 60_000).unref();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });

/** The "read model caught up" line of each projection, by projection name. */
export const caughtUp = (logs: LogLine[]) =>
  Object.fromEntries(
    logs.filter((line) => line.msg === 'read model caught up').map((line) => [line.projection, line.applied]),
  ) as Record<string, number>;
