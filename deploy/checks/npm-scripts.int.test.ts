import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../apps/veil/src/config.ts';
import { veilNodeFlags } from '../../apps/veil/src/node-flags.ts';

/**
 * The root package.json's scripts keep working: each file a script runs exists, the tiers select
 * what they name, and the cheap tools run for real (npm start, cluster, dev, the tests and the
 * checks are exercised by their own tests and by CI).
 */
const root = path.resolve(import.meta.dirname, '../..');
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const run = promisify(execFile);
const npm = (...args: string[]) => run('npm', ['run', '--silent', ...args], { cwd: root });
const scratch = mkdtempSync(path.join(tmpdir(), 'veil-scripts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm scripts', () => {
  it('run files that exist, with plain node (Node 24 strips the types itself)', () => {
    const entries = Object.values(scripts).flatMap((command) =>
      [...command.matchAll(/\bnode (?:--[\w=-]+ )*(\S+\.ts)\b/g)].map((match) => match[1]!),
    );
    expect(entries.length).toBeGreaterThanOrEqual(6);
    for (const entry of entries) expect(existsSync(path.join(root, entry)), entry).toBe(true);
    expect(Object.values(scripts).join('\n')).not.toMatch(/--import tsx|\btsx\b/);
  });

  it("npm start and the container image run Veil with Veil's V8 flags", () => {
    const entry = 'apps/veil/src/bin/veil.ts';
    expect(scripts.start).toContain(`node ${veilNodeFlags.join(' ')} ${entry}`);
    const dockerfile = readFileSync(path.join(root, 'deploy/docker/Dockerfile'), 'utf8');
    const exec = ['node', ...veilNodeFlags, entry].map((arg) => `"${arg}"`).join(', ');
    expect(dockerfile).toContain(`CMD [${exec}]`);
  });

  it.each(['unit', 'int', 'e2e'])(
    'test:%s runs exactly the files of that tier',
    async (tier) => {
      expect(scripts[`test:${tier}`]).toBe(`vitest run --project ${tier}`);
      const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
      const list = await run(process.execPath, [vitest, 'list', '--project', tier, '--filesOnly', '--json'], {
        cwd: root,
      });
      const listed = (JSON.parse(list.stdout) as { file: string }[])
        .map(({ file }) => path.relative(root, file))
        .sort();
      expect(listed.length).toBeGreaterThan(0);
      const inTree = await run(
        'git',
        ['ls-files', '--cached', '--others', '--exclude-standard', `*.${tier}.test.ts`],
        {
          cwd: root,
        },
      );
      expect(listed).toEqual(inTree.stdout.split('\n').filter(Boolean).sort());
    },
    60_000,
  );

  it('keys prints an Ed25519 key pair and a VAPID key pair as the configuration expects them', async () => {
    const printed = JSON.parse((await npm('keys')).stdout) as Record<string, string>;
    expect(Object.keys(printed).sort()).toEqual([
      'JWT_PRIVATE_KEY',
      'JWT_PUBLIC_KEY',
      'VAPID_PRIVATE_KEY',
      'VAPID_PUBLIC_KEY',
    ]);
    // The configuration accepts them as they are.
    expect(() =>
      loadConfig({
        VAPID_PUBLIC_KEY: printed.VAPID_PUBLIC_KEY,
        VAPID_PRIVATE_KEY: printed.VAPID_PRIVATE_KEY,
      }),
    ).not.toThrow();
    const [privateJwk, publicJwk] = [printed.JWT_PRIVATE_KEY!, printed.JWT_PUBLIC_KEY!].map((v) =>
      JSON.parse(v),
    );
    expect(privateJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', d: expect.any(String) });
    expect(publicJwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: privateJwk.x });
    expect(publicJwk).not.toHaveProperty('d');
  }, 30_000);

  it('start builds the web client only when its sources changed since the last build', async () => {
    expect(scripts.start).toMatch(/^node web\/scripts\/build-if-changed\.ts && node /);
    const script = path.join(root, 'web/scripts/build-if-changed.ts');
    // The first call builds if this checkout's build is missing or stale; the second must not.
    await run(process.execPath, [script], { cwd: root });
    const index = path.join(root, 'web/dist/index.html');
    const builtAt = statSync(index).mtimeMs;
    const { stdout } = await run(process.execPath, [script], { cwd: root });
    expect(stdout).toMatch(/up to date/);
    expect(statSync(index).mtimeMs).toBe(builtAt);
  }, 180_000);

  it('bench:profile summarises a CPU profile', async () => {
    // A profile of a second of busy work, recorded the way BENCH_PROF=1 records the servers.
    await run(process.execPath, [
      '--cpu-prof',
      `--cpu-prof-dir=${scratch}`,
      '-e',
      'const end = Date.now() + 1000; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);',
    ]);
    const profile = readdirSync(scratch).find((name) => name.endsWith('.cpuprofile'))!;
    const { stdout } = await npm('bench:profile', '--', path.join(scratch, profile));
    expect(stdout).toMatch(/busy/i);
    expect(stdout).toMatch(/\d+\.\d %/);
  }, 30_000);
});
