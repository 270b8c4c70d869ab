import path from 'node:path';
import type { SearchPage } from './search-page.ts';
import { bundleForBrowser } from '@veil/test-env';
import { launchBenchChromium } from './browser-bundle.ts';
import { percentile, round } from './stats.ts';

/**
 * Message search in Chromium, as the web client does it: its MiniSearch index
 * (`web/src/features/search/message-index.ts`) built from `messages` synthetic messages of
 * 4-19 words, then queried: common words, rare ones, prefixes as typed, a typo, two words; each
 * query several times, the median and the worst. Then the index saved, sealed with the vault key
 * (AES-GCM), opened and loaded again, as the browser keeps it in IndexedDB.
 * Run alone: `node bench/src/search-bench.ts [messages]`.
 */
export interface SearchBenchResult {
  messages: number;
  buildSeconds: number;
  queries: { query: string; hits: number; medianMs: number; maxMs: number }[];
  worstMedianMs: number;
  savedMb: number;
  serializeMs: number;
  sealMs: number;
  openMs: number;
  loadMs: number;
  /** The first query's hits again, on the index saved, sealed, opened and loaded. */
  hitsAfterReload: number;
}

const queries = [
  'meeting',
  'lighthouse harbour',
  'zanzibar1000',
  'pizz',
  'tomorow',
  'the',
  'project deadline',
];
const repeats = 15;

export const runSearchBench = async (messages: number): Promise<SearchBenchResult> => {
  const script = await bundleForBrowser(path.join(import.meta.dirname, 'search-page.ts'));
  const browser = await launchBenchChromium();
  try {
    const page = await browser.newPage();
    // localhost is a secure context: WebCrypto is there, as on Veil's own origin.
    await page.route('http://localhost/search-bench', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><script>${script}</script>` }),
    );
    await page.goto('http://localhost/search-bench');
    const built = await page.evaluate((n) => (window as unknown as SearchPage).build(n), messages);
    const measured = [];
    for (const query of queries) {
      const runs = [];
      for (let i = 0; i < repeats; i += 1)
        runs.push(await page.evaluate((q) => (window as unknown as SearchPage).query(q), query));
      const ms = runs.map((run) => run.ms);
      measured.push({
        query,
        hits: runs[0]!.hits,
        medianMs: round(
          percentile(
            [...ms].sort((a, b) => a - b),
            50,
          ),
          2,
        ),
        maxMs: round(Math.max(...ms), 2),
      });
    }
    const saved = await page.evaluate(() => (window as unknown as SearchPage).saveAndLoad());
    const again = await page.evaluate((q) => (window as unknown as SearchPage).query(q), queries[0]!);
    return {
      messages: built.documents,
      buildSeconds: round(built.buildMs / 1000, 2),
      queries: measured,
      worstMedianMs: Math.max(...measured.map((q) => q.medianMs)),
      savedMb: round(saved.bytes / (1024 * 1024), 1),
      serializeMs: round(saved.serializeMs, 0),
      sealMs: round(saved.sealMs, 0),
      openMs: round(saved.openMs, 0),
      loadMs: round(saved.loadMs, 0),
      hitsAfterReload: again.hits,
    };
  } finally {
    await browser.close();
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await runSearchBench(Number(process.argv[2] ?? 100_000));
  console.table(result.queries);
  console.log({ ...result, queries: undefined });
}
