import { build } from 'esbuild';
import { chromium } from 'playwright-core';

/** A page script and everything it imports as one IIFE for Chromium (the benchmarks' pages). */
export const bundleForBrowser = async (entryPoint: string): Promise<string> => {
  const bundle = await build({
    entryPoints: [entryPoint],
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
    target: 'chrome120',
  });
  return bundle.outputFiles[0]!.text;
};

/** Debian's Chromium (or `CHROMIUM_PATH`), headless, as the benchmarks run it. */
export const launchBenchChromium = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
