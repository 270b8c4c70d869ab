import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { embeddedEnv } from '@veil/test-env';

/** One JSON log line of a Veil process. */
export type LogEntry = Record<string, unknown> & { msg?: string; service?: string; traceId?: string };

export interface LoggedVeil {
  url: string;
  dataDir: string;
  /** Every line the process has logged so far, parsed. */
  entries: LogEntry[];
  stop(): Promise<void>;
}

const veilEntry = path.resolve(import.meta.dirname, '../../src/bin/veil.ts');

/**
 * `veil` as its own OS process, as `npm start` runs it, with JSON logs at debug level read from
 * its stdout: what an operator's log collector would get.
 */
export const startLoggedVeil = async (env: Record<string, string> = {}): Promise<LoggedVeil> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-logged-'));
  const { LOG_FORMAT: _format, ...inherited } = embeddedEnv();
  const child = spawn(process.execPath, [veilEntry], {
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const entries: LogEntry[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      let entry: LogEntry;
      try {
        entry = JSON.parse(line) as LogEntry;
      } catch {
        return; // not a log line (a dependency printing on its own)
      }
      entries.push(entry);
      const running = /^Veil is running on (\S+)$/.exec(entry.msg ?? '');
      if (running) resolve(running[1]!);
    });
    void exited.then((code) => reject(new Error(`veil exited with ${code} before it was running`)));
  });
  return {
    url,
    dataDir,
    entries,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
