import { defineConfig } from 'vitest/config';

/**
 * One vitest run for the whole tree, in three projects by file suffix (`--project <name>` picks
 * one; `npm run test:unit`, `test:int`, `test:e2e`):
 *   unit  *.unit.test.ts  no I/O
 *   int   *.int.test.ts   embedded adapters, in-process (real HTTP and sockets on loopback)
 *   e2e   *.e2e.test.ts   real NATS and Redis, MongoDB / S3 when configured, Chromium. Its global
 *         setup starts nats-server and redis-server for the run unless NATS_URL / REDIS_URL are
 *         given, and stops at once, saying what to install, when a program is missing
 *         (packages/test-env). It runs only when e2e files are part of the run.
 */
const roots = '{apps,packages,services,web,bench,deploy}/**';
const tier = (name: string, extra: { globalSetup?: string[] } = {}) => ({
  extends: true as const,
  test: { name, include: [`${roots}/*.${name}.test.ts`], ...extra },
});

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll waits for what another process or the browser does; on a loaded machine that can take
    // well over vitest's default second. A poll that fails still fails, only later.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    reporters: ['default'],
    projects: [
      tier('unit'),
      tier('int'),
      tier('e2e', { globalSetup: ['packages/test-env/src/global-setup.ts'] }),
    ],
  },
});
