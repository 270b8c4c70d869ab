import { randomBytes, scryptSync } from 'node:crypto';
import path from 'node:path';
import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { passwordHashCost } from '@veil/auth-service/password-hash';
import { cpuSecondsOf } from './process-cpu.ts';
import { median, now, round, summarize } from './stats.ts';
import { startVeilProcess } from './veil-process.ts';

/**
 * Registrations and logins per second in one embedded Veil process (its own, as `npm start`
 * runs), the server's CPU per registration and per login, and beside them the CPU of one
 * password hash at the cost the auth service uses, measured alone in this process: what a login
 * costs beyond its hash is the rest of the request (HTTP, the token, the event, the projections).
 * `concurrency` clients ask at once, more than the auth service hashes at a time, so the figures
 * are the server's rate, not the clients'.
 */
export interface LoginBenchResult {
  accounts: number;
  concurrency: number;
  hash: { N: number; r: number; p: number; cpuMs: number };
  registrationsPerSecond: number;
  registrationCpuMs: number;
  loginsPerSecond: number;
  loginCpuMs: number;
  /** A login's time from request to answer while the server is saturated, ms. */
  loginMs: { p50: number; p99: number };
  loginCpuBeyondHashMs: number;
}

/** Runs `job(i)` for i < count, `concurrency` at a time; each answer's time in ms. */
const inParallel = async (count: number, concurrency: number, job: (i: number) => Promise<void>) => {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const started = now();
      await job(i);
      times.push(now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times;
};

/** CPU ms of one hash at the service's cost: scryptSync on this thread, median of `repeats`. */
const hashCpuMs = (repeats: number) => {
  const { keyLength, ...options } = passwordHashCost;
  const samples = Array.from({ length: repeats }, () => {
    const started = process.cpuUsage();
    scryptSync('bench-password', randomBytes(16), keyLength, options);
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  });
  return median(samples);
};

export const runLoginBench = async (
  accounts: number,
  port: number,
  concurrency = 8,
): Promise<LoginBenchResult> => {
  // The server stores the key and never uses it: one for every account keeps the client cheap.
  const publicKey = await exportPublicKeySpkiBase64((await generateUserKeyPair()).publicKey);
  const run = Date.now().toString(36);
  const username = (i: number) => `l${run}${i}`.slice(0, 30);
  const password = 'bench-password';
  const veil = await startVeilProcess(port);
  try {
    const post = async (route: string, body: URLSearchParams | string, expected: number) => {
      const response = await fetch(`${veil.url}${route}`, {
        method: 'POST',
        ...(typeof body === 'string' && { headers: { 'content-type': 'application/json' } }),
        body,
      });
      await response.arrayBuffer();
      if (response.status !== expected) throw new Error(`${route} answered ${response.status}`);
    };
    const measure = async (job: (i: number) => Promise<void>) => {
      const cpuBefore = await cpuSecondsOf(veil.pid);
      const started = now();
      const times = await inParallel(accounts, concurrency, job);
      const seconds = (now() - started) / 1000;
      const cpuMs = ((await cpuSecondsOf(veil.pid)) - cpuBefore) * 1000;
      return { perSecond: round(accounts / seconds), cpuMs: round(cpuMs / accounts), times };
    };
    const registrations = await measure((i) =>
      post('/api/v1/user/register', new URLSearchParams({ username: username(i), password, publicKey }), 201),
    );
    const logins = await measure((i) =>
      post('/api/v1/user/login', JSON.stringify({ username: username(i), password }), 200),
    );
    const hash = round(hashCpuMs(Math.min(9, accounts)));
    const loginMs = summarize(logins.times);
    return {
      accounts,
      concurrency,
      hash: { N: passwordHashCost.N, r: passwordHashCost.r, p: passwordHashCost.p, cpuMs: hash },
      registrationsPerSecond: registrations.perSecond,
      registrationCpuMs: registrations.cpuMs,
      loginsPerSecond: logins.perSecond,
      loginCpuMs: logins.cpuMs,
      loginMs: { p50: round(loginMs.p50), p99: round(loginMs.p99) },
      loginCpuBeyondHashMs: round(logins.cpuMs - hash),
    };
  } finally {
    await veil.stop();
  }
};

/** `node bench/src/login-bench.ts [accounts=200] [runs=3] [port=18950]`: each run in a fresh process. */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [accounts = 200, runs = 3, port = 18950] = process.argv.slice(2).map(Number);
  const results: LoginBenchResult[] = [];
  try {
    for (let i = 0; i < runs; i++) results.push(await runLoginBench(accounts, port));
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
  console.log(`Registrations and logins, ${accounts} accounts, ${runs} runs (CPU ms each)`);
  console.table(
    results.map(({ hash, loginMs, ...rest }) => ({ ...rest, hashCpuMs: hash.cpuMs, ...loginMs })),
  );
}
