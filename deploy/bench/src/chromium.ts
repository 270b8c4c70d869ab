import { build } from 'esbuild';
import path from 'node:path';

/**
 * How the benchmarks launch Chromium (Debian's, headless, playwright-core): outside vitest, so
 * `CHROMIUM_PATH` or the usual path instead of the test setup's.
 */
export const benchChromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
};

/** A page script of the benchmarks (a file beside this one), bundled for Chromium. */
export const bundlePage = async (file: string): Promise<string> => {
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, file)],
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
    target: 'chrome120',
  });
  return bundle.outputFiles[0]!.text;
};
