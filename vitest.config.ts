import { defineConfig } from 'vitest/config';

/**
 * One vitest run for the whole tree. Tiers are set by file suffix:
 *   *.unit.test.ts  no I/O
 *   *.int.test.ts   embedded adapters, in-process (real HTTP and sockets on loopback)
 *   *.e2e.test.ts   real NATS and Redis on loopback, MongoDB / S3 when configured, Chromium
 */
export default defineConfig({
  test: {
    include: ['{packages,services,web,deploy}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
