import { openBundledPage } from '@veil/test-env';
import { chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium (or `CHROMIUM_PATH`), headless, as the benchmarks run it; with `fakeMedia`, a
 * synthetic microphone and camera and no permission prompt, for calls.
 */
export const launchBenchChromium = ({ fakeMedia = false } = {}) =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      ...(fakeMedia ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : []),
    ],
  });

/**
 * Opens a page made of one bundled script in Chromium (`openBundledPage`), waits until the
 * script defines `ready` on window, and runs `use` with the page; everything is closed afterwards.
 */
export const withBenchPage = async <T>(
  entryPoint: string,
  ready: string,
  use: (page: Page) => Promise<T>,
): Promise<T> => {
  const browser = await launchBenchChromium();
  try {
    const { page, close } = await openBundledPage(browser, entryPoint, ready);
    try {
      return await use(page);
    } finally {
      await close();
    }
  } finally {
    await browser.close();
  }
};
