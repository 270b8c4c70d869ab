import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ensureWebBuilt } from '../../web/e2e/harness.ts';

/**
 * The first page stays small: the scripts a browser runs before Veil's first render (the entry
 * chunk, what it imports statically, and the reader's language, which the first render waits
 * for) are at most 150 kB gzipped. Read from the build's manifest, so a heavy module that slips
 * into the shell (zod through the contracts, the search engine, the QR code, the crypto, RTK
 * Query) fails here rather than slowing every visitor down.
 */
const budgetBytes = 150_000;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

describe('the first page', () => {
  it('loads at most 150 kB of gzipped script before its first render', { timeout: 240_000 }, async () => {
    const dist = await ensureWebBuilt();
    const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      ManifestChunk
    >;
    const gzipped = (chunk: ManifestChunk) => gzipSync(readFileSync(path.join(dist, chunk.file))).length;
    // The entry and everything it imports statically, each chunk once.
    const loaded = new Set<string>();
    const visit = (key: string) => {
      if (loaded.has(key)) return;
      loaded.add(key);
      for (const imported of manifest[key]!.imports ?? []) visit(imported);
    };
    const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
    expect(entries.map(([key]) => key)).toEqual(['index.html']);
    visit('index.html');
    const shell = [...loaded].reduce((sum, key) => sum + gzipped(manifest[key]!), 0);
    // One language is loaded before the first render: count the largest.
    const languages = Object.values(manifest).filter((chunk) =>
      /^src\/locales\/\w+\.ts$/.test(chunk.src ?? ''),
    );
    expect(languages.length).toBeGreaterThanOrEqual(3);
    const language = Math.max(...languages.map(gzipped));
    const files = [...loaded].map((key) => manifest[key]!.file);
    expect(shell + language, `${files.join(', ')} + a language`).toBeLessThanOrEqual(budgetBytes);
  });
});
