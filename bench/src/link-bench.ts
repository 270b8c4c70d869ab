import path from 'node:path';
import { bundleForBrowser } from '@veil/test-env';
import type { Page } from 'playwright-core';
import { launchBenchChromium } from './browser-bundle.ts';
import { registerBenchAccount } from './bench-account.ts';
import type { LinkPage } from './link-page.ts';
import { median, round } from './stats.ts';
import { startVeilProcess } from './veil-process.ts';

/**
 * Linking a new browser, end to end, as the web client does it: Veil embedded in a process of its
 * own, two pages of Debian's Chromium (headless, separate contexts: two browsers of one account)
 * running the web client's link session and key storage on sockets of their own. Timed from the
 * logged-in browser joining with the code to the new browser having stored the keys (the person's
 * look at the digits left out: that browser confirms at once), and to a 50-message history page
 * read with them. Target: under 1 s.
 * Run alone: `node bench/src/link-bench.ts [rounds] [port]`.
 */
export interface LinkBenchResult {
  rounds: number;
  linkMs: number;
  linkAndHistoryMs: number;
  linkMsRuns: number[];
}

const historyMessages = 50;

export const runLinkBench = async (rounds: number, port: number): Promise<LinkBenchResult> => {
  const script = await bundleForBrowser(path.join(import.meta.dirname, 'link-page.ts'));
  const veil = await startVeilProcess(port);
  const browser = await launchBenchChromium();
  try {
    const account = await registerBenchAccount(veil.url, `link${Date.now().toString(36)}`);
    // A page loaded from Veil itself (its sockets accept that Origin only; Chromium lets a page
    // reach loopback only when it came from there), with the bench bundle added to it.
    const openPage = async (): Promise<Page> => {
      const page = await (await browser.newContext({ bypassCSP: true })).newPage();
      page.on('pageerror', (error) => console.error(`[link bench page] ${error.message}`));
      await page.goto(`${veil.url}/healthz`);
      await page.addScriptTag({ content: script });
      await page.evaluate(
        (token) => (window as unknown as { linkBench: LinkPage }).linkBench.connect(token),
        account.token,
      );
      return page;
    };
    type Bench = { linkBench: LinkPage };
    // Each round is two browsers that have just connected, as a person linking would have.
    const oneRound = async (round: number) => {
      const [fresh, old] = [await openPage(), await openPage()];
      try {
        const storeAs = `${account.id}-${round}`;
        const history = await old.evaluate(
          ([as, n]) => (window as unknown as Bench).linkBench.prepareKeys(as, n),
          [storeAs, historyMessages] as const,
        );
        const code = await fresh.evaluate(
          (as) => (window as unknown as Bench).linkBench.openLink(as),
          storeAs,
        );
        const [{ storedAt, historyReadAt }, { startedAt }] = await Promise.all([
          fresh.evaluate((h) => (window as unknown as Bench).linkBench.linked(h), history),
          old.evaluate(([as, c]) => (window as unknown as Bench).linkBench.join(as, c), [
            storeAs,
            code,
          ] as const),
        ]);
        return { linkMs: storedAt - startedAt, linkAndHistoryMs: historyReadAt - startedAt };
      } finally {
        await Promise.all([fresh.context().close(), old.context().close()]);
      }
    };
    await oneRound(0); // warm-up: the first use of each algorithm, the first socket messages
    const runs = [];
    for (let i = 1; i <= rounds; i++) runs.push(await oneRound(i));
    return {
      rounds,
      linkMs: round(median(runs.map((r) => r.linkMs)), 1),
      linkAndHistoryMs: round(median(runs.map((r) => r.linkAndHistoryMs)), 1),
      linkMsRuns: runs.map((r) => round(r.linkMs, 1)),
    };
  } finally {
    await browser.close();
    await veil.stop();
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runLinkBench(Number(process.argv[2] ?? 7), Number(process.argv[3] ?? 18950)).then(
    (result) => {
      console.log('Linking a browser in Chromium (median ms)');
      console.table(result);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
