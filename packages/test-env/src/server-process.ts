import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { onAbruptExit } from './exit-cleanup.ts';

/**
 * A server binary the test run started and owns: stopped by its own process id, never by name,
 * and killed at once if the run exits before stopping it (exit-cleanup.ts).
 */
export interface ServerProcess {
  pid: number;
  /** The last lines it printed, for an error message. */
  lastLines(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once (a crash, for fault tests); resolves once it has exited. */
  kill(): Promise<void>;
}

export interface ServerCommand {
  name: string;
  command: string;
  args: string[];
  /** A line it prints once it accepts connections. */
  ready: RegExp;
  timeoutMs?: number;
}

const keptLines = 40;

/** Starts the command and resolves once it prints its ready line; rejects (and kills it) otherwise. */
export const startServerProcess = async ({
  name,
  command,
  args,
  ready,
  timeoutMs = 20_000,
}: ServerCommand): Promise<ServerProcess> => {
  // Not detached: it stays in the run's process group, so Ctrl-C in a terminal reaches it too.
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const lastLines = () => lines.map((line) => `    ${line}`).join('\n');
  let isReady = false;
  let stopping = false;
  let exited = false;
  const killNow = () => {
    if (!exited) child.kill('SIGKILL');
  };
  const forget = onAbruptExit(killNow);

  let markReady!: () => void;
  const readyLine = new Promise<void>((resolve) => (markReady = resolve));
  // Both streams are read to the end: a server whose pipe fills up would block on its next write.
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (lines.length > keptLines) lines.shift();
      if (!isReady && ready.test(line)) {
        isReady = true;
        markReady();
      }
    });
  }
  // 'close', not 'exit': by then its last lines (the reason it stopped) have been read.
  const closed = new Promise<void>((resolve) =>
    child.once('close', (code, signal) => {
      exited = true;
      forget();
      if (isReady && !stopping) {
        process.stderr.write(
          `${name} (pid ${child.pid}) exited during the run (${code ?? signal}):\n${lastLines()}\n`,
        );
      }
      resolve();
    }),
  );
  const stop = async (graceMs = 5_000) => {
    stopping = true;
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(killNow, graceMs);
    await closed;
    clearTimeout(timer);
  };

  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => {
      forget();
      reject(error);
    });
  });
  const exitedEarly = closed.then(() => {
    if (!isReady) throw new Error(`${name} exited before it was ready:\n${lastLines()}`);
  });
  exitedEarly.catch(() => undefined); // only the race below listens
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${name} was not ready after ${timeoutMs} ms:\n${lastLines()}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([readyLine, exitedEarly, timedOut]);
  } catch (error) {
    await stop(0);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const kill = async () => {
    stopping = true;
    killNow();
    await closed;
  };
  return { pid: child.pid!, lastLines, stop, kill };
};
