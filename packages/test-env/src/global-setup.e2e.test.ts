import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { natsUrl, redisUrl, uniquePrefix } from './index.ts';

/**
 * The e2e global setup watched from outside: each case starts a vitest run of its own
 * (fixture/vitest.config.ts, this setup around a small probe) in a fresh TMPDIR, with
 * VEIL_TEST_PIDFILE set, and checks what it started, what it used and what it left behind.
 */
const packageDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(packageDir, '../..');
const vitestBin = path.join(repoRoot, 'node_modules/vitest/vitest.mjs');
const fixtureConfig = path.join(packageDir, 'fixture/vitest.config.ts');

/** This run's environment without what the outer run's setup and workers put there. */
const baseEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(NATS_URL|REDIS_URL|CHROMIUM_PATH|VEIL_TEST_PIDFILE)$|^VITEST/.test(key),
    ),
  );

interface Run {
  dir: string;
  pidFile: string;
  readyFile: string;
  mark: string;
  pid: number;
  /** Resolves with the exit code and everything it printed. */
  done: Promise<{ code: number | null; output: string }>;
}

const runs: Run[] = [];

const startRun = (probe: 'servers' | 'hold', env: Record<string, string> = {}): Run => {
  const dir = mkdtempSync(path.join(tmpdir(), 'veil-setup-check-'));
  const run = {
    dir,
    pidFile: path.join(dir, 'pids'),
    readyFile: path.join(dir, 'ready'),
    mark: uniquePrefix('probe'),
  };
  const child = spawn(process.execPath, [vitestBin, 'run', '--config', fixtureConfig, probe], {
    cwd: repoRoot,
    env: {
      ...baseEnv(),
      TMPDIR: dir,
      VEIL_TEST_PIDFILE: run.pidFile,
      PROBE_MARK: run.mark,
      PROBE_READY_FILE: run.readyFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, output })),
  );
  const started = { ...run, pid: child.pid!, done };
  runs.push(started);
  return started;
};

afterEach(async () => {
  for (const run of runs.splice(0)) {
    if ((await Promise.race([run.done, null])) === null) process.kill(run.pid, 'SIGKILL');
    await run.done;
    rmSync(run.dir, { recursive: true, force: true });
  }
});

const pidsOf = (run: Run) =>
  existsSync(run.pidFile) ? readFileSync(run.pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : [];

/** A zombie (dead, not yet reaped by its new parent) counts as gone. */
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT'; // no /proc: signal 0 is all there is
  }
};

/** What the setup's servers left in the run's TMPDIR (their store and working directories). */
const leftovers = (run: Run) => readdirSync(run.dir).filter((name) => name.startsWith('veil-test-'));

const waitFor = async (condition: () => boolean, what: string, run: Run) => {
  for (const deadline = Date.now() + 60_000; !condition();) {
    const finished = await Promise.race([
      run.done,
      new Promise<null>((resolve) => setTimeout(resolve, 100, null)),
    ]);
    if (finished || Date.now() > deadline)
      throw new Error(`${what} did not happen:\n${finished?.output ?? ''}`);
  }
};

/** Whether the probe's stream and key are on the outer run's servers, removed again here. */
const markOnOuterServers = async (mark: string) => {
  const nats = await connect({ servers: natsUrl() });
  const jsm = await jetstreamManager(nats);
  const stream = await jsm.streams.delete(mark).catch(() => false);
  await nats.close();
  const redis = new Redis(redisUrl());
  const key = await redis.getdel(mark);
  redis.disconnect();
  return { stream, key };
};

describe('the e2e global setup', () => {
  it('starts NATS (JetStream) and Redis on free ports when none is given, and stops them when the run ends', async () => {
    const run = startRun('servers');
    const { code, output } = await run.done;
    expect(code, output).toBe(0);
    expect(output).toMatch(
      /NATS_URL=nats:\/\/127\.0\.0\.1:\d+ \(started\), REDIS_URL=redis:\/\/127\.0\.0\.1:\d+ \(started\)/,
    );
    const pids = pidsOf(run);
    expect(pids).toHaveLength(2);
    expect(pids.filter(isRunning)).toEqual([]);
    expect(leftovers(run)).toEqual([]);
    // The probe wrote to the servers this run started, not to the outer run's.
    expect(await markOnOuterServers(run.mark)).toEqual({ stream: false, key: null });
  }, 90_000);

  it('uses the servers NATS_URL and REDIS_URL name, and starts none', async () => {
    const run = startRun('servers', { NATS_URL: natsUrl(), REDIS_URL: redisUrl() });
    const { code, output } = await run.done;
    expect(code, output).toBe(0);
    expect(output).toContain(`NATS_URL=${natsUrl()} (given), REDIS_URL=${redisUrl()} (given)`);
    expect(pidsOf(run)).toEqual([]);
    expect(await markOnOuterServers(run.mark)).toEqual({ stream: true, key: 'probe' });
  }, 90_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stops the servers it started when the run is interrupted (%s)',
    async (signal) => {
      const run = startRun('hold');
      await waitFor(() => existsSync(run.readyFile), 'the probe starting', run);
      const pids = pidsOf(run);
      expect(pids.filter(isRunning)).toHaveLength(2);
      process.kill(run.pid, signal);
      const { code, output } = await run.done;
      expect(code, output).toBe(128 + constants.signals[signal]);
      expect(pids.filter(isRunning)).toEqual([]);
      expect(leftovers(run)).toEqual([]);
    },
    90_000,
  );

  it('stops at once, saying what to install, when a program is missing', async () => {
    const run = startRun('servers', { CHROMIUM_PATH: '/nonexistent/chromium' });
    const { code, output } = await run.done;
    expect(code).toBe(1);
    expect(output).toContain(
      'The e2e tests need Chromium (CHROMIUM_PATH=/nonexistent/chromium is not an executable file)',
    );
    expect(output).toMatch(
      process.platform === 'darwin' ? /brew install --cask chromium/ : /apt-get install chromium/,
    );
    expect(output).not.toMatch(/Test Files|ECONNREFUSED/);
    expect(existsSync(run.pidFile)).toBe(false);
  }, 90_000);
});
