import { build } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';

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

/**
 * Serves a page made of one bundled script on 127.0.0.1 (a secure context: crypto.subtle exists
 * there), opens it in Chromium, waits until the script defines `ready` on window, and runs `use`
 * with the page; everything is closed afterwards.
 */
export const withBenchPage = async <T>(
  entryPoint: string,
  ready: string,
  use: (page: Page) => Promise<T>,
): Promise<T> => {
  const script = await bundleForBrowser(entryPoint);
  const server = createServer((req, res) => {
    if (req.url === '/bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/bundle.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const browser = await launchBenchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction((name) => name in window, ready);
      return await use(page);
    } finally {
      await browser.close();
    }
  } finally {
    server.close();
  }
};
