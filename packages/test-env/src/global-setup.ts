import { writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { runAbruptExitSteps } from './exit-cleanup.ts';
import { checkPrerequisites } from './prerequisites.ts';
import { startNatsServer, startRedisServer } from './test-servers.ts';

/**
 * vitest's global setup for the e2e tier (vitest.config.ts). Unless NATS_URL / REDIS_URL name
 * running servers, it starts `nats-server -js` and `redis-server` for this run on free loopback
 * ports and passes their addresses on in NATS_URL / REDIS_URL, which the test files and every
 * process they spawn inherit; CHROMIUM_PATH likewise names the browser it found. The servers
 * stop when the run ends, also when it fails or is interrupted. VEIL_TEST_PIDFILE, when set,
 * receives the process ids it started (one a line), so a check can prove none outlived the run.
 */
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(2)} s`;

/**
 * Ends the run with one message: the problem is the machine, not the code, so neither a stack
 * trace nor vitest's report of the files it could not run would help.
 */
const stopRun = (message: string): never => {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
};

/** If the run ends before the teardown (Ctrl-C, SIGTERM, a crash), kill what was started. */
const cleanUpOnAbruptExit = () => {
  const onSignal = (signal: NodeJS.Signals) => {
    runAbruptExitSteps();
    // vitest exits on these signals itself; were this the only listener, end as the signal would.
    if (process.listenerCount(signal) === 1) process.exit(128 + constants.signals[signal]);
  };
  process.on('exit', runAbruptExitSteps);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('exit', runAbruptExitSteps);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
};

const startServers = async (binaries: { natsServer?: string; redisServer?: string }) => {
  const starting = [
    ...(binaries.natsServer ? [startNatsServer(binaries.natsServer)] : []),
    ...(binaries.redisServer ? [startRedisServer(binaries.redisServer)] : []),
  ];
  const results = await Promise.allSettled(starting);
  const servers = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((server) => server.stop()));
    stopRun(`Could not start the test servers: ${String(failure.reason)}`);
  }
  return servers;
};

export default async function setup(): Promise<() => Promise<void>> {
  const started = performance.now();
  const found = checkPrerequisites({ nats: !process.env.NATS_URL, redis: !process.env.REDIS_URL });
  if (found.problem) stopRun(found.problem);
  process.env.CHROMIUM_PATH = found.chromium;

  const removeHandlers = cleanUpOnAbruptExit();
  const servers = await startServers(found);
  const given = { nats: process.env.NATS_URL, redis: process.env.REDIS_URL };
  const urlOf = (name: string) => servers.find((server) => server.name === name)?.url;
  process.env.NATS_URL ??= urlOf('nats-server');
  process.env.REDIS_URL ??= urlOf('redis-server');
  if (process.env.VEIL_TEST_PIDFILE) {
    writeFileSync(process.env.VEIL_TEST_PIDFILE, servers.map((server) => `${server.pid}\n`).join(''));
  }
  const describe = (variable: string, url: string | undefined, givenUrl: string | undefined) =>
    `${variable}=${url} (${givenUrl ? 'given' : 'started'})`;
  console.log(
    `test servers: ${describe('NATS_URL', process.env.NATS_URL, given.nats)}, ` +
      `${describe('REDIS_URL', process.env.REDIS_URL, given.redis)}; ready in ${seconds(started)}`,
  );

  return async () => {
    const stopping = performance.now();
    await Promise.all(servers.map((server) => server.stop()));
    removeHandlers();
    if (servers.length) console.log(`test servers: stopped in ${seconds(stopping)}`);
  };
}
