import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { median, round } from './stats.ts';

/**
 * A newcomer's first visit: a fresh browser profile (nothing cached, nobody signed in) opens the
 * embedded Veil's start page, timed from the navigation's start until the Welcome page's heading
 * is drawn. Beside it, what the browser downloaded to draw it: the scripts fetched by then,
 * gzipped (the server sends them as they are; a proxy in front would compress them).
 */
export interface FirstLoadResult {
  /** Median ms from the navigation's start to the Welcome page drawn. */
  drawnMs: number;
  /** The same, the fastest and the slowest round. */
  drawnMinMs: number;
  drawnMaxMs: number;
  /** Scripts fetched before it was drawn: how many, and their size gzipped (kB). */
  scripts: number;
  scriptsGzippedKb: number;
}

export const measureFirstLoad = async (
  browser: Browser,
  url: string,
  rounds: number,
): Promise<FirstLoadResult> => {
  const times: number[] = [];
  let scriptUrls: string[] = [];
  for (let round = 0; round < rounds; round++) {
    // A new context is a new profile: empty HTTP cache, storage and service workers.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'commit' });
      const drawn = await page.evaluate(async () => {
        while (!document.querySelector('.welcome h1'))
          await new Promise((resolve) => requestAnimationFrame(resolve));
        const scripts = performance
          .getEntriesByType('resource')
          .filter(
            (entry) =>
              (entry as PerformanceResourceTiming).initiatorType === 'script' || entry.name.endsWith('.js'),
          )
          .map((entry) => entry.name);
        return { at: performance.now(), scripts };
      });
      times.push(drawn.at);
      scriptUrls = drawn.scripts;
    } finally {
      await context.close();
    }
  }
  const sizes = await Promise.all(
    [...new Set(scriptUrls)].map(
      async (script) => gzipSync(Buffer.from(await (await fetch(script)).arrayBuffer())).length,
    ),
  );
  return {
    drawnMs: round(median(times), 1),
    drawnMinMs: round(Math.min(...times), 1),
    drawnMaxMs: round(Math.max(...times), 1),
    scripts: sizes.length,
    scriptsGzippedKb: round(sizes.reduce((sum, size) => sum + size, 0) / 1000, 1),
  };
};
