/**
 * How the benchmarks launch Chromium (Debian's, headless, playwright-core): outside vitest, so
 * `CHROMIUM_PATH` or the usual path instead of the test setup's.
 */
export const benchChromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
};
