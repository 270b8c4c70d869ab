import { build } from 'esbuild';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';

/** A page script and everything it imports, as one IIFE for Chromium. */
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

/**
 * Serves a page made of one bundled script on 127.0.0.1 (a secure context: crypto.subtle exists
 * there), opens it in `browser` and waits until the script defines `ready` on window. `close`
 * closes the page and the server.
 */
export const openBundledPage = async (
  browser: Browser,
  entryPoint: string,
  ready: string,
): Promise<{ page: Page; close(): Promise<void> }> => {
  const script = await bundleForBrowser(entryPoint);
  const server = createServer((req, res) => {
    if (req.url === '/bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/bundle.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stopServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction((name) => name in window, ready);
    return {
      page,
      async close() {
        await page.close();
        await stopServer();
      },
    };
  } catch (error) {
    await stopServer();
    throw error;
  }
};
